// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createRef, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_FILTERS, type ClassCounts, type SortKey, type TripFilters as Filters } from '@/lib/view/trip-list';
import { TripFilters } from './trip-filters';

afterEach(cleanup);

const counts: ClassCounts = { late: 4, 'on-time': 10, early: 2, unknown: 1 };

/** The filters as the dispatcher holds them: in state, every change recorded. */
function Dispatcher({ changes, shown = 17 }: { changes: { filters?: Filters; sort?: SortKey }[]; shown?: number }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<SortKey>('delay');
  return (
    <TripFilters
      filters={filters}
      sort={sort}
      counts={counts}
      routes={[
        { routeId: 15, label: 'M15 · First Av' },
        { routeId: 101, label: 'M101 · Third Av' },
      ]}
      directions={['inbound', 'outbound']}
      shown={shown}
      total={17}
      theme="light"
      searchRef={createRef()}
      onChange={(patch) => {
        changes.push(patch);
        if (patch.filters) setFilters(patch.filters);
        if (patch.sort) setSort(patch.sort);
      }}
    />
  );
}

describe('TripFilters', () => {
  it('each delay class button says how many trips it would add, and toggles', () => {
    const changes: { filters?: Filters }[] = [];
    render(<Dispatcher changes={changes} />);
    const group = screen.getByRole('group', { name: 'Filter by delay class' });
    const late = within(group).getByRole('button', { name: /Late 4/ });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['Late 4', 'On time 10', 'Early 2', 'Unknown 1']);
    fireEvent.click(late);
    fireEvent.click(within(group).getByRole('button', { name: /Early 2/ }));
    expect(late.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(late);
    expect(changes.map((c) => c.filters!.delayClasses)).toEqual([['late'], ['late', 'early'], ['early']]);
    expect(late.getAttribute('aria-pressed')).toBe('false');
  });

  it('route, direction, search, stale and sort each change one thing; clearing resets the filters, not the sort', () => {
    const changes: { filters?: Filters; sort?: SortKey }[] = [];
    render(<Dispatcher changes={changes} />);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: 'Route' }), { target: { value: '101' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Direction' }), { target: { value: 'inbound' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search trips' }), { target: { value: 'BX' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Stale or no position' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'age' } });
    expect(changes.at(-2)!.filters).toEqual({ ...NO_FILTERS, routeId: 101, direction: 'inbound', query: 'BX', staleOnly: true });
    expect(changes.at(-1)).toEqual({ sort: 'age' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(changes.at(-1)).toEqual({ filters: NO_FILTERS });
    expect(screen.getByRole('combobox', { name: 'Route' })).toHaveProperty('value', '');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveProperty('value', 'age');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('says how many trips are shown of how many', () => {
    render(<Dispatcher changes={[]} shown={5} />);
    expect(screen.getByText('5 of 17 active trips')).toBeTruthy();
    cleanup();
    render(<Dispatcher changes={[]} />);
    expect(screen.getByText('17 active trips')).toBeTruthy();
  });
});
