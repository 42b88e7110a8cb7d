// What the integration status page (/status) says, pure: the budget per minute over the last hour as chart rows,
// errors counted by kind, and a sentence for the timezone, the recorder and this instance.
import type { Health, InstanceStatus, RecordedUpstreamError, RecorderStatus, UpstreamRecord } from '@/lib/model';
import { formatDuration } from './format';

const MINUTE_MS = 60_000;
export const RECORD_MINUTES = 60;

/** People's names for the feed's request kinds (PartnerOperation values and 'finalTrip'); unknown kinds show raw. */
export const REQUEST_KIND_LABELS: Record<string, string> = {
  busLocation: 'Bus locations',
  activeTrips: 'Active trips',
  listBuses: 'Bus list',
  listRoutes: 'Route list',
  routeStops: 'Route stops',
  trip: 'Trip (on demand)',
  finalTrip: 'Final trip lookups',
  status: 'Key status',
};

export function kindLabel(kind: string): string {
  return REQUEST_KIND_LABELS[kind] ?? kind;
}

export interface BudgetMinuteRow {
  at: number;
  /** Requests by kind, zero-filled for every kind of the hour. */
  [kind: string]: number;
}

export interface BudgetSeries {
  /** One row per minute of the last hour, oldest first, the current minute last. */
  rows: BudgetMinuteRow[];
  /** Kinds seen in the hour, the most used first. */
  kinds: string[];
  totals: { requests: number; rateLimited429: number; failed: number };
  /** The busiest minute's request count. */
  peak: number;
}

/** Minutes with no request are zeros, not gaps: the chart shows an idle minute as idle. */
export function budgetSeries(record: UpstreamRecord, now: number): BudgetSeries {
  const byMinute = new Map(record.minutes.map((m) => [m.at, m]));
  const totalsByKind = new Map<string, number>();
  for (const m of record.minutes) for (const [k, n] of Object.entries(m.byKind)) totalsByKind.set(k, (totalsByKind.get(k) ?? 0) + n);
  const kinds = [...totalsByKind.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
  const last = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const rows: BudgetMinuteRow[] = [];
  const totals = { requests: 0, rateLimited429: 0, failed: 0 };
  let peak = 0;
  for (let i = RECORD_MINUTES - 1; i >= 0; i--) {
    const at = last - i * MINUTE_MS;
    const m = byMinute.get(at);
    const row: BudgetMinuteRow = { at, rateLimited429: m?.rateLimited429 ?? 0 };
    let sum = 0;
    for (const k of kinds) {
      row[k] = m?.byKind[k] ?? 0;
      sum += row[k];
    }
    rows.push(row);
    totals.requests += sum;
    totals.rateLimited429 += m?.rateLimited429 ?? 0;
    totals.failed += m?.failed ?? 0;
    peak = Math.max(peak, sum);
  }
  return { rows, kinds, totals, peak };
}

/** Error counts by kind of failure (http status, timeout, network, contract), the most frequent first. */
export function errorsByKind(errors: readonly RecordedUpstreamError[]): Array<{ kind: string; count: number }> {
  const counts = new Map<string, number>();
  for (const e of errors) {
    const k = errorKindLabel(e);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([kind, count]) => ({ kind, count }));
}

/** `HTTP 503`, `timeout`, `network`, `contract`. */
export function errorKindLabel(e: Pick<RecordedUpstreamError, 'kind' | 'status'>): string {
  return e.kind === 'http' ? `HTTP ${e.status ?? '?'}` : e.kind;
}

/** How the zone in use was decided, in one sentence. */
export function timezoneExplanation(tz: Health['timezone']): string {
  switch (tz.source) {
    case 'config':
      return 'Set by PARTNER_TIMEZONE in the server configuration.';
    case 'inferred':
      return "Inferred from the data: the median of the newest bus GPS times against the server's clock, snapped to a quarter hour and confirmed by a second reading (PARTNER_TIMEZONE is not set).";
    case 'inferring':
      return "Being inferred from the data: a first reading of the newest bus GPS times against the server's clock waits for a second one to confirm it (PARTNER_TIMEZONE is not set).";
    case 'default':
      return 'Not known yet: no GPS time has been read to infer it from, so UTC stands in (set PARTNER_TIMEZONE to fix it).';
  }
}

/** `UTC−05:00` for an offset in minutes east of UTC. */
export function formatOffset(minutes: number | null): string {
  if (minutes === null) return 'unknown';
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export function recorderSummary(r: RecorderStatus | null): string {
  if (!r) return 'No recorder: this server keeps no history (the status page shows its own last hour, kept in memory).';
  const lag = r.lagMs === null ? 'lag unknown' : `lag ${formatDuration(r.lagMs / 1000)}`;
  return `${r.state} · ${r.store} · ${lag} · ${r.pending} waiting${r.message ? ` · ${r.message}` : ''}`;
}

export function instanceSummary(i: InstanceStatus | null): string {
  if (!i) return 'Single instance: this server polls the upstream itself (no REDIS_URL).';
  return `${i.role} · epoch ${i.epoch ?? 'unknown'} · instance ${i.instanceId}${i.leaderId && i.leaderId !== i.instanceId ? ` · leader ${i.leaderId}` : ''}`;
}
