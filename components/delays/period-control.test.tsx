// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardPeriod } from '@/lib/view/board-period';
import { PeriodControl } from './period-control';

afterEach(cleanup);

const TODAY = '2026-03-04';

/** The control as the board holds it: its period in state, every change recorded. */
function Board({ start, changes, today = TODAY }: { start: BoardPeriod; changes: BoardPeriod[]; today?: string | null }) {
  const [period, setPeriod] = useState(start);
  return (
    <PeriodControl
      period={period}
      today={today}
      onChange={(p) => {
        changes.push(p);
        setPeriod(p);
      }}
    />
  );
}

const live: BoardPeriod = { kind: 'live', from: null, to: null };

describe('PeriodControl', () => {
  it('shows no date fields until a custom range is chosen, which starts as today to today', () => {
    const changes: BoardPeriod[] = [];
    render(<Board start={live} changes={changes} />);
    const period = screen.getByRole('combobox', { name: 'Period' });
    expect(period).toHaveProperty('value', 'live');
    expect(screen.queryByLabelText('From')).toBeNull();
    fireEvent.change(period, { target: { value: 'custom' } });
    expect(changes).toEqual([{ kind: 'custom', from: TODAY, to: TODAY }]);
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    expect(from).toHaveProperty('value', TODAY);
    expect(to).toHaveProperty('value', TODAY);
    // No day after today can be picked: the history has none.
    expect(from.getAttribute('max')).toBe(TODAY);
    expect(to.getAttribute('max')).toBe(TODAY);
  });

  it('changes one end of the range at a time, and a cleared field is no date', () => {
    const changes: BoardPeriod[] = [];
    render(<Board start={{ kind: 'custom', from: '2026-03-01', to: '2026-03-03' }} changes={changes} />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-02-20' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '' } });
    expect(changes).toEqual([
      { kind: 'custom', from: '2026-02-20', to: '2026-03-03' },
      { kind: 'custom', from: '2026-02-20', to: null },
    ]);
  });

  it('a named period drops the range, and a custom range chosen again starts from today', () => {
    const changes: BoardPeriod[] = [];
    render(<Board start={{ kind: 'custom', from: '2026-03-01', to: '2026-03-03' }} changes={changes} />);
    const period = screen.getByRole('combobox', { name: 'Period' });
    fireEvent.change(period, { target: { value: '7d' } });
    expect(screen.queryByLabelText('From')).toBeNull();
    fireEvent.change(period, { target: { value: 'custom' } });
    expect(changes).toEqual([
      { kind: '7d', from: null, to: null },
      { kind: 'custom', from: TODAY, to: TODAY },
    ]);
  });

  it('offers every board period by its label', () => {
    render(<Board start={live} changes={[]} />);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Live now', 'Today', 'Yesterday', 'Last 7 days', 'Last 30 days', 'Custom range']);
  });
});
