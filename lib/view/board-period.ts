// The delay board's period, kept in the URL (`?period=7d`, `?period=custom&from=2026-03-01&to=2026-03-31`): live
// (the trips running now, the board's first behaviour) or a span of service dates read from the history.
import { addDays, isCalendarDate } from '@/lib/time/calendar';

export const BOARD_PERIODS = [
  { kind: 'live', label: 'Live now' },
  { kind: 'today', label: 'Today' },
  { kind: 'yesterday', label: 'Yesterday' },
  { kind: '7d', label: 'Last 7 days' },
  { kind: '30d', label: 'Last 30 days' },
  { kind: 'custom', label: 'Custom range' },
] as const;

export type BoardPeriodKind = (typeof BOARD_PERIODS)[number]['kind'];

export interface BoardPeriod {
  kind: BoardPeriodKind;
  /** Only for `custom`. */
  from: string | null;
  to: string | null;
}

export const LIVE_PERIOD: BoardPeriod = { kind: 'live', from: null, to: null };

export function parseBoardPeriod(params: URLSearchParams): BoardPeriod {
  const kind = BOARD_PERIODS.find((p) => p.kind === params.get('period'))?.kind ?? 'live';
  if (kind !== 'custom') return { kind, from: null, to: null };
  const from = params.get('from');
  const to = params.get('to');
  return { kind, from: from && isCalendarDate(from) ? from : null, to: to && isCalendarDate(to) ? to : null };
}

/** The query string of a period, merged into the page's other parameters. */
export function serializeBoardPeriod(p: BoardPeriod, params: URLSearchParams): string {
  const next = new URLSearchParams(params);
  for (const k of ['period', 'from', 'to']) next.delete(k);
  if (p.kind !== 'live') next.set('period', p.kind);
  if (p.kind === 'custom') {
    if (p.from) next.set('from', p.from);
    if (p.to) next.set('to', p.to);
  }
  return next.toString();
}

/** The service dates a period covers, given today's date on the agency's clock; null for live or an unset range. */
export function periodRange(p: BoardPeriod, today: string): { from: string; to: string } | null {
  switch (p.kind) {
    case 'live':
      return null;
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'custom':
      return p.from && p.to ? { from: p.from <= p.to ? p.from : p.to, to: p.from <= p.to ? p.to : p.from } : null;
  }
}

export function describePeriod(range: { from: string; to: string }): string {
  return range.from === range.to ? range.from : `${range.from} to ${range.to}`;
}
