// What the exception views show: labels, the panel's order and filters, the badge's counts, the words an
// aria-live region says about new exceptions, and the history's CSV. Pure: the panel, the wall, /status and
// /exceptions read the same rules.
import { ladderHref } from '@/lib/page-url/ladder-url';
import { EXCEPTION_SEVERITIES, SEVERITY_RANK, type EpochMs, type ExceptionRule, type ExceptionSeverity, type FleetException, type LiveException } from '@/lib/model';

export const RULE_LABELS: Record<ExceptionRule, string> = {
  late: 'Late',
  early: 'Early',
  'gps-lost': 'GPS lost',
  ghost: 'Ghost trip',
  stopped: 'Stopped',
  'off-route': 'Off route',
  bunched: 'Bunched',
  gapped: 'Gapped',
  upstream: 'Upstream',
  budget: 'Budget',
  recorder: 'Recorder',
  coordination: 'Coordination',
};

export const SEVERITY_LABELS: Record<ExceptionSeverity, string> = { critical: 'Critical', warning: 'Warning', info: 'Info' };

export type ExceptionSort = 'severity' | 'age';

export interface ExceptionFilter {
  rule: ExceptionRule | null;
  routeCode: string | null;
}

/** Not resolved, and not snoozed at `now`. */
export function isActive(e: FleetException, now: EpochMs): boolean {
  return e.state !== 'resolved' && !(e.snoozedUntil !== null && e.snoozedUntil > now);
}

/** The panel's rows: filtered, then by severity (most severe first, then newest) or by age (oldest first). */
export function panelRows<E extends FleetException>(list: readonly E[], filter: ExceptionFilter, sort: ExceptionSort): E[] {
  const rows = list.filter((e) => (filter.rule === null || e.rule === filter.rule) && (filter.routeCode === null || e.subject.routeCode === filter.routeCode));
  const stateRank = (e: FleetException) => (e.state === 'resolved' ? 1 : 0);
  return rows.sort((a, b) => {
    if (stateRank(a) !== stateRank(b)) return stateRank(a) - stateRank(b);
    if (sort === 'severity' && a.severity !== b.severity) return SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity];
    return sort === 'age' ? a.openedAt - b.openedAt || a.id.localeCompare(b.id) : b.openedAt - a.openedAt || a.id.localeCompare(b.id);
  });
}

/** Active exceptions by severity, most severe first (the badge). */
export function severityCounts(list: readonly FleetException[], now: EpochMs): { severity: ExceptionSeverity; count: number }[] {
  return [...EXCEPTION_SEVERITIES]
    .reverse()
    .map((severity) => ({ severity, count: list.filter((e) => e.severity === severity && isActive(e, now)).length }))
    .filter((c) => c.count > 0);
}

/** What an exception is about, for people: "#5412 · trip 123 · M15", or the integration. */
export function subjectLabel(e: Pick<FleetException, 'subject'>): string {
  const s = e.subject;
  const parts = [s.busName ?? (s.busId !== null ? `bus ${s.busId}` : null), s.tripId !== null ? `trip ${s.tripId}` : null, s.routeCode].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'the integration';
}

/** The aria-live sentence for exceptions that opened since the last list (none: empty, nothing is said). */
export function newExceptionsAnnouncement(previous: ReadonlySet<string> | null, list: readonly LiveException[]): string {
  if (previous === null) return '';
  const fresh = list.filter((e) => e.state === 'open' && !previous.has(e.id));
  if (fresh.length === 0) return '';
  if (fresh.length === 1) return `New ${SEVERITY_LABELS[fresh[0]!.severity].toLowerCase()} exception: ${fresh[0]!.message}`;
  return `${fresh.length} new exceptions, ${fresh.filter((e) => e.severity === 'critical').length} critical.`;
}

/** Unread exceptions this user would be told of at `now`: snoozed ones wait until their snooze ends. */
export function unreadCount(list: readonly LiveException[], now: EpochMs): number {
  return list.filter((e) => e.unread && isActive(e, now)).length;
}

/** Ids snoozed at `now` (not resolved): what the panel remembers to say when each snooze ends. */
export function snoozedIds(list: readonly FleetException[], now: EpochMs): Set<string> {
  return new Set(list.filter((e) => e.state !== 'resolved' && e.snoozedUntil !== null && e.snoozedUntil > now).map((e) => e.id));
}

/** The aria-live sentence for exceptions snoozed before and active again at `now` (none: empty). */
export function snoozeEndedAnnouncement(snoozedBefore: ReadonlySet<string>, list: readonly FleetException[], now: EpochMs): string {
  const back = list.filter((e) => snoozedBefore.has(e.id) && isActive(e, now));
  if (back.length === 0) return '';
  if (back.length === 1) return `Snooze over: ${back[0]!.message}`;
  return `${back.length} snoozed exceptions are back.`;
}

/** The ladder of the exception's route, with its trip chosen (null when it names no route). */
export function exceptionLadderHref(e: Pick<FleetException, 'subject'>): string | null {
  const route = e.subject.routeCode ?? (e.subject.routeId !== null ? String(e.subject.routeId) : null);
  if (route === null) return null;
  const base = ladderHref([route]);
  return e.subject.tripId !== null ? `${base}&trip=${e.subject.tripId}` : base;
}

/** Routes named by the list, sorted (the panel's route filter). */
export function exceptionRoutes(list: readonly FleetException[]): string[] {
  return [...new Set(list.map((e) => e.subject.routeCode).filter((c): c is string => c !== null))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

/** The history as CSV lines (header first), times as ISO. */
export function exceptionCsvLines(list: readonly FleetException[]): string[][] {
  const iso = (t: EpochMs | null) => (t === null ? '' : new Date(t).toISOString());
  const header = ['id', 'rule', 'severity', 'state', 'bus_id', 'bus_name', 'trip_id', 'route', 'message', 'opened_at', 'acknowledged_at', 'acknowledged_by', 'note', 'resolved_at', 'ack_s', 'resolve_s'];
  const secs = (a: EpochMs | null, b: EpochMs) => (a === null ? '' : String(Math.round((a - b) / 1000)));
  return [
    header,
    ...list.map((e) => [
      e.id,
      e.rule,
      e.severity,
      e.state,
      e.subject.busId === null ? '' : String(e.subject.busId),
      e.subject.busName ?? '',
      e.subject.tripId === null ? '' : String(e.subject.tripId),
      e.subject.routeCode ?? '',
      e.message,
      iso(e.openedAt),
      iso(e.acknowledgedAt),
      e.acknowledgedBy ?? '',
      e.note ?? '',
      iso(e.resolvedAt),
      secs(e.acknowledgedAt, e.openedAt),
      secs(e.resolvedAt, e.openedAt),
    ]),
  ];
}
