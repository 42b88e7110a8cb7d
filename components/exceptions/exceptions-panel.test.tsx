// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveException, LiveExceptionsResponse } from '@/lib/model';
import { fakeFetch, renderWithClient } from '@/lib/testing/render';
import { makeLiveException } from '@/lib/testing/view-factories';
import { ExceptionsPanel } from './exceptions-panel';

const T0 = Date.parse('2026-03-04T17:00:00Z');
const MIN = 60_000;

const exception = (over: Partial<LiveException> = {}) =>
  makeLiveException({
    rule: 'stopped',
    severity: 'critical',
    figures: { stoppedMin: 6 },
    message: '#7 on trip 44 (M15) has not moved for 6 min.',
    since: T0 - 6 * MIN,
    openedAt: T0 - 5 * MIN,
    ...over,
  });

function serve(exceptions: LiveException[]) {
  const body: LiveExceptionsResponse = { generatedAt: T0, canAct: true, exceptions, countsByRule: {} };
  const f = fakeFetch({ 'GET /api/exceptions': () => ({ body }), 'POST /api/exceptions/read': () => ({ body: { ok: true } }) });
  vi.stubGlobal('fetch', f.fetch);
  return f;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the exceptions panel', () => {
  it('links each exception to its route’s ladder with its trip chosen, beside the map’s selection', async () => {
    serve([exception(), exception({ id: 'ex_2', rule: 'upstream', subject: { busId: null, tripId: null, routeId: null, routeCode: null, busName: null }, message: 'The upstream is down.' })]);
    const onSelect = vi.fn();
    renderWithClient(<ExceptionsPanel now={T0} onSelect={onSelect} />);
    fireEvent.click(await screen.findByRole('button', { name: /Exceptions/ }));
    const item = await screen.findByRole('listitem', { name: /Stopped: #7 · trip 44 · M15/ });
    const link = screen.getByRole('link', { name: /On the ladder/ });
    expect(item.contains(link)).toBe(true);
    expect(link.getAttribute('href')).toBe('/ladder?route=M15&trip=44');
    // The integration's exception names no route: no ladder for it.
    expect(screen.getAllByRole('link', { name: /On the ladder/ })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: /Show #7/ }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 'ex_1' }));
  });

  it('keeps a snoozed exception out of the badge and the unread count until its snooze ends, then announces it once', async () => {
    serve([exception({ snoozedUntil: T0 + 15 * MIN })]);
    const { rerender } = renderWithClient(<ExceptionsPanel now={T0} onSelect={() => {}} />);
    const badge = await screen.findByLabelText('Open exceptions by severity');
    await waitFor(() => expect(badge.textContent).toBe('none open'));
    expect(screen.queryByText(/unread/)).toBeNull();
    const live = document.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('');

    // Still snoozed a minute before the end: nothing more.
    rerender(<ExceptionsPanel now={T0 + 14 * MIN} onSelect={() => {}} />);
    expect(screen.getByLabelText('Open exceptions by severity').textContent).toBe('none open');
    expect(live.textContent).toBe('');

    // The snooze ends: it counts again, is unread again for this user, and the live region says so.
    rerender(<ExceptionsPanel now={T0 + 15 * MIN + 1} onSelect={() => {}} />);
    await waitFor(() => expect(screen.getByLabelText('Open exceptions by severity').textContent).toBe('1 critical'));
    expect(screen.getByText('1 unread')).toBeTruthy();
    expect(live.textContent).toBe('Snooze over: #7 on trip 44 (M15) has not moved for 6 min.');
  });
});
