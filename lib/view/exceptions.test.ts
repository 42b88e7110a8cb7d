import { describe, expect, it } from 'vitest';
import { ruleTimesOf, type LiveException } from '@/lib/model';
import { makeLiveException } from '@/lib/testing/view-factories';
import { exceptionCsvLines, exceptionLadderHref, newExceptionsAnnouncement, panelRows, severityCounts, snoozeEndedAnnouncement, snoozedIds, subjectLabel, unreadCount } from './exceptions';

const T0 = Date.parse('2026-03-04T17:00:00Z');
let n = 0;
function ex(over: Partial<LiveException> = {}): LiveException {
  n++;
  return makeLiveException({ id: `ex_${n}`, message: `exception ${n}`, since: T0, openedAt: T0 + n * 1000, ...over });
}

describe('the exception views', () => {
  it('orders by severity (newest first within one) or by age, resolved last, and filters by rule and route', () => {
    const a = ex({ severity: 'info' });
    const b = ex({ severity: 'critical', rule: 'stopped' });
    const c = ex({ severity: 'critical', rule: 'ghost', subject: { busId: null, tripId: 9, routeId: 4, routeCode: 'M101', busName: null } });
    const d = ex({ severity: 'critical', state: 'resolved', resolvedAt: T0 + 99_000 });
    expect(panelRows([a, b, c, d], { rule: null, routeCode: null }, 'severity').map((e) => e.id)).toEqual([c.id, b.id, a.id, d.id]);
    expect(panelRows([a, b, c, d], { rule: null, routeCode: null }, 'age').map((e) => e.id)).toEqual([a.id, b.id, c.id, d.id]);
    expect(panelRows([a, b, c, d], { rule: 'ghost', routeCode: null }, 'age').map((e) => e.id)).toEqual([c.id]);
    expect(panelRows([a, b, c, d], { rule: null, routeCode: 'M15' }, 'age').map((e) => e.id)).toEqual([a.id, b.id, d.id]);
  });

  it('counts active exceptions by severity, leaving out resolved and snoozed ones', () => {
    const list = [ex({ severity: 'critical' }), ex({ severity: 'critical', snoozedUntil: T0 + 60_000 }), ex({ severity: 'info' }), ex({ state: 'resolved' })];
    expect(severityCounts(list, T0)).toEqual([
      { severity: 'critical', count: 1 },
      { severity: 'info', count: 1 },
    ]);
    expect(severityCounts(list, T0 + 120_000)).toEqual([
      { severity: 'critical', count: 2 },
      { severity: 'info', count: 1 },
    ]);
  });

  it('announces what opened since the last list, and nothing on the first', () => {
    const a = ex({ message: 'bus #7 has not moved for 6 min.', severity: 'critical' });
    const b = ex();
    expect(newExceptionsAnnouncement(null, [a])).toBe('');
    expect(newExceptionsAnnouncement(new Set(), [a])).toBe('New critical exception: bus #7 has not moved for 6 min.');
    expect(newExceptionsAnnouncement(new Set([a.id]), [a, b, ex({ severity: 'critical' })])).toBe('2 new exceptions, 1 critical.');
    expect(newExceptionsAnnouncement(new Set([a.id]), [a])).toBe('');
  });

  it('gives the median times to acknowledge and to resolve per rule, and the CSV', () => {
    const list = [
      ex({ openedAt: T0, acknowledgedAt: T0 + 60_000, acknowledgedBy: 'dana', resolvedAt: T0 + 600_000, state: 'resolved' }),
      ex({ openedAt: T0, acknowledgedAt: T0 + 180_000, acknowledgedBy: 'lee' }),
      ex({ openedAt: T0, rule: 'ghost' }),
    ];
    expect(ruleTimesOf(list)).toEqual([
      { rule: 'late', count: 2, acknowledged: 2, medianAckS: 120, medianResolveS: 600 },
      { rule: 'ghost', count: 1, acknowledged: 0, medianAckS: null, medianResolveS: null },
    ]);
    const csv = exceptionCsvLines(list.slice(0, 1));
    expect(csv[0]).toContain('ack_s');
    expect(csv[1]!.slice(-2)).toEqual(['60', '600']);
    expect(subjectLabel(list[0]!)).toBe('#7 · trip 44 · M15');
    expect(subjectLabel({ subject: { busId: null, tripId: null, routeId: null, routeCode: null, busName: null } })).toBe('the integration');
  });

  it('names the ladder of the exception’s route with its trip, by code or else by id, and none without a route', () => {
    expect(exceptionLadderHref(ex())).toBe('/ladder?route=M15&trip=44');
    expect(exceptionLadderHref(ex({ subject: { busId: 7, tripId: null, routeId: 3, routeCode: null, busName: null } }))).toBe('/ladder?route=3');
    expect(exceptionLadderHref(ex({ subject: { busId: null, tripId: null, routeId: null, routeCode: null, busName: null } }))).toBeNull();
  });

  it('holds a snoozed exception back from the unread count until its snooze ends, then says it is back once', () => {
    const snoozed = ex({ snoozedUntil: T0 + 600_000 });
    const list = [snoozed, ex({ unread: false })];
    expect(unreadCount(list, T0)).toBe(0);
    const before = snoozedIds(list, T0);
    expect([...before]).toEqual([snoozed.id]);
    expect(snoozeEndedAnnouncement(before, list, T0 + 599_999)).toBe('');
    expect(unreadCount(list, T0 + 600_000)).toBe(1);
    expect(snoozeEndedAnnouncement(before, list, T0 + 600_000)).toBe(`Snooze over: ${snoozed.message}`);
    // Said once: the next check starts from what is snoozed then (nothing).
    expect(snoozeEndedAnnouncement(snoozedIds(list, T0 + 600_000), list, T0 + 700_000)).toBe('');
    // Resolved while snoozed: nothing comes back.
    expect(snoozeEndedAnnouncement(before, [{ ...snoozed, state: 'resolved' }], T0 + 600_000)).toBe('');
  });
});
