import { describe, expect, it } from 'vitest';
import { parseBoardPeriod, periodRange, serializeBoardPeriod } from './board-period';
import { addDays, dateAtOffset } from '@/lib/time/calendar';

describe('the board period', () => {
  it('round-trips through the URL, keeping other parameters', () => {
    const params = new URLSearchParams('route=5&period=custom&from=2026-03-01&to=2026-03-09');
    const p = parseBoardPeriod(params);
    expect(p).toEqual({ kind: 'custom', from: '2026-03-01', to: '2026-03-09' });
    expect(serializeBoardPeriod({ kind: '7d', from: null, to: null }, params)).toBe('route=5&period=7d');
    expect(serializeBoardPeriod({ kind: 'live', from: null, to: null }, params)).toBe('route=5');
    expect(parseBoardPeriod(new URLSearchParams('period=week'))).toEqual({ kind: 'live', from: null, to: null });
    expect(parseBoardPeriod(new URLSearchParams('period=custom&from=2026-02-30'))).toEqual({ kind: 'custom', from: null, to: null });
  });

  it('turns each period into service dates ending today', () => {
    const today = '2026-03-01';
    expect(periodRange({ kind: 'yesterday', from: null, to: null }, today)).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(periodRange({ kind: '7d', from: null, to: null }, today)).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(periodRange({ kind: '30d', from: null, to: null }, today)).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(periodRange({ kind: 'custom', from: '2026-03-09', to: '2026-03-01' }, today)).toEqual({ from: '2026-03-01', to: '2026-03-09' });
    expect(periodRange({ kind: 'live', from: null, to: null }, today)).toBeNull();
  });

  it('reads dates on the agency clock', () => {
    expect(dateAtOffset(Date.UTC(2026, 2, 5, 3, 30), -300)).toBe('2026-03-04');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });
});
