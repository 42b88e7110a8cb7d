import 'server-only';
import type { FeedEvents, FixEvent, TripFinalEvent, TripsEvent, TypedEmitter } from '@/lib/fleet';
import type { Trip } from '@/lib/model';
import { logLine } from '@/lib/log';
import { formatPartnerTimestamp, type TimeRule } from '@/lib/partner';
import { Batch, type TripRow } from './batch';
import { recorderGaps } from './schema';
import type { Store } from './store';
import type { StoreQueryTiming } from './query-timing';
import { writeBatch } from './writes';

// The recorder: listens to the feed's events and writes what it hears in batches, off the request path. The
// handlers only move an event into the pending batch; a timer writes it (every second, or sooner at 500 rows).
// When the store is slow or down the pending rows wait, up to a bound, then new fixes and changes are dropped
// and counted; the health carries "history: not recording since HH:MM (reason)" and the recorder retries by
// itself, with backoff. A crash loses the pending batch at most; close() (SIGTERM) writes it first.

export interface RecorderOptions {
  /** The store, or how to get it (retried while it cannot be opened). */
  store: () => Promise<Store>;
  /** The app's clock: the simulator's in the truth test. */
  now?: () => number;
  /** The agency's clock, for the times people read ("since 08:12"). */
  timeRule?: () => TimeRule;
  flushIntervalMs?: number;
  /** A batch this large is written without waiting for the timer. */
  flushRows?: number;
  /** Rows held while the store cannot take them; beyond, new rows are dropped and counted. */
  maxBufferRows?: number;
  /** Longest wait between retries of a failing store. */
  maxRetryMs?: number;
  log?: (line: Record<string, unknown>) => void;
  /** Times each batch write (the application context's; lib/metrics listens to it). Default: untimed. */
  timing?: StoreQueryTiming;
}

interface KnownTrip {
  status: string | null;
  delay: number | null;
  /** The fields that make a full write worth it when they change. */
  key: string;
  lastSeenAt: number;
}

export interface RecorderStats {
  writtenRows: number;
  droppedRows: number;
  pendingRows: number;
  batches: number;
  /** Milliseconds from a row's arrival to the end of the write that stored it, for the last batch. */
  lastLagMs: number | null;
  maxLagMs: number;
  failing: { since: number; reason: string } | null;
}

/** Trips unseen this long are forgotten by the change detector (they stay in the store). */
const KNOWN_TRIP_TTL_MS = 6 * 3_600_000;
const MINUTE_MS = 60_000;

export function tripRow(t: Trip, seenAt: number): TripRow {
  return {
    tripId: t.id,
    routeId: t.routeId,
    routeCode: t.routeCode,
    routeName: t.routeName,
    direction: t.direction,
    busId: t.busId,
    plateNumber: t.plateNumber,
    busName: t.busName,
    serviceDate: t.tripDate,
    tripType: t.tripType,
    serviceKind: t.serviceKind,
    plannedDepartureAt: t.plannedDepartureAt,
    plannedArrivalAt: t.plannedArrivalAt,
    actualDepartureAt: t.actualDepartureAt,
    actualArrivalAt: t.actualArrivalAt,
    status: t.status,
    delayMinutes: t.delayMinutes,
    firstSeenAt: seenAt,
    lastSeenAt: seenAt,
  };
}

function tripKey(t: Trip): string {
  return JSON.stringify([t.routeId, t.routeCode, t.routeName, t.direction, t.busId, t.tripDate, t.plannedDepartureAt, t.plannedArrivalAt, t.actualDepartureAt, t.actualArrivalAt, t.status, t.delayMinutes, t.plateNumber, t.busName]);
}

/** The first line of an error, short, for the health and the log (pg's messages never carry the password). */
export function describeStoreError(e: unknown): string {
  const msg = e instanceof Error ? e.message || e.name : String(e);
  const first = msg.split('\n')[0]!.trim();
  return first.length > 120 ? `${first.slice(0, 117)}...` : first || 'unknown error';
}

export class Recorder {
  private readonly now: () => number;
  private readonly log: (line: Record<string, unknown>) => void;
  private readonly flushIntervalMs: number;
  private readonly flushRows: number;
  private readonly maxBufferRows: number;
  private readonly maxRetryMs: number;
  private readonly writeBatch: typeof writeBatch;
  private pending = new Batch();
  /** Arrival time of the oldest row in `pending` (for the lag figure). */
  private pendingSince: number | null = null;
  private readonly known = new Map<number, KnownTrip>();
  private store: Store | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  private retryMs = 0;
  private failing: { since: number; sinceText: string; reason: string; droppedAtStart: number } | null = null;
  private lastDropLogAt = 0;
  private readonly unsubscribe: (() => void)[] = [];
  readonly stats: RecorderStats = { writtenRows: 0, droppedRows: 0, pendingRows: 0, batches: 0, lastLagMs: null, maxLagMs: 0, failing: null };

  constructor(private readonly opts: RecorderOptions) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? logLine('warn');
    this.flushIntervalMs = opts.flushIntervalMs ?? 1_000;
    this.flushRows = opts.flushRows ?? 500;
    this.maxBufferRows = opts.maxBufferRows ?? 200_000;
    this.maxRetryMs = opts.maxRetryMs ?? 30_000;
    this.writeBatch = opts.timing ? opts.timing.time('write_batch', writeBatch) : writeBatch;
  }

  /** Subscribes to the feed's events; call before the feed starts. */
  attach(events: TypedEmitter<FeedEvents>): void {
    this.unsubscribe.push(
      events.on('fix', (e) => this.onFix(e)),
      events.on('trips', (e) => this.onTrips(e)),
      events.on('trip-final', (e) => this.onFinal(e)),
      events.on('request', (e) => this.admit(1) && (this.pending.addRequest(Math.floor(e.at / MINUTE_MS) * MINUTE_MS, e.kind, e.lane, e.ok), this.arrived())),
      events.on('health', (e) => this.admit(1) && (this.pending.health.push({ at: e.at, fromState: e.from, toState: e.to, message: e.message }), this.arrived())),
    );
    this.schedule(this.flushIntervalMs);
  }

  /** What the trips of the last hours were (status, delay), so a restart does not record them as changed. */
  primeTrips(rows: { tripId: number; status: string | null; delayMinutes: number | null; lastSeenAt: number }[]): void {
    for (const r of rows) this.known.set(r.tripId, { status: r.status, delay: r.delayMinutes, key: '', lastSeenAt: r.lastSeenAt });
  }

  /** The sentence the health carries while the recorder cannot write, else null. */
  healthNote(): string | null {
    const f = this.failing;
    return f ? `history: not recording since ${f.sinceText} (${f.reason})` : null;
  }

  private arrived(): void {
    this.pendingSince ??= this.now();
    this.stats.pendingRows = this.pending.rows;
    if (this.pending.rows >= this.flushRows && !this.flushing) this.schedule(0);
  }

  /** Room for n more rows? Otherwise they are dropped and counted. */
  private admit(n: number): boolean {
    if (this.closed) return false;
    if (this.pending.rows + n <= this.maxBufferRows) return true;
    this.stats.droppedRows += n;
    const now = this.now();
    if (now - this.lastDropLogAt >= MINUTE_MS) {
      this.lastDropLogAt = now;
      this.log({ msg: 'history buffer full: rows dropped', droppedRows: this.stats.droppedRows, maxBufferRows: this.maxBufferRows });
    }
    return false;
  }

  private onFix(e: FixEvent): void {
    if (!this.admit(1)) return;
    // The event is the recorded fix (one type); the key a repeated fix collides on is added.
    this.pending.addFix({ ...e, fixAt: e.gpsAt ?? e.fetchedAt });
    this.arrived();
  }

  private onTrips(e: TripsEvent): void {
    if (this.closed) return;
    const at = e.fetchedAt;
    for (const t of e.trips) this.seeTrip(t, at);
    this.pending.walkAt = Math.max(this.pending.walkAt ?? at, at);
    for (const [id, k] of this.known) if (at - k.lastSeenAt > KNOWN_TRIP_TTL_MS) this.known.delete(id);
    this.arrived();
  }

  private seeTrip(t: Trip, at: number): void {
    const prev = this.known.get(t.id);
    const key = tripKey(t);
    const statusChanged = !prev || prev.status !== t.status;
    const delayChanged = prev ? prev.delay !== t.delayMinutes : t.delayMinutes !== null;
    const changed = !prev || prev.key !== key;
    const rows = (changed ? 1 : 0) + (statusChanged ? 1 : 0) + (delayChanged ? 1 : 0) || 1;
    if (!this.admit(rows)) return;
    this.known.set(t.id, { status: t.status, delay: t.delayMinutes, key, lastSeenAt: at });
    // Listed again after a final answer: that answer was premature (see writeBatch).
    this.pending.finals.delete(t.id);
    if (changed) {
      this.pending.tripUpserts.set(t.id, tripRow(t, at));
      this.pending.tripSeen.delete(t.id);
    } else if (!this.pending.tripUpserts.has(t.id)) this.pending.tripSeen.set(t.id, at);
    else this.pending.tripUpserts.get(t.id)!.lastSeenAt = at;
    if (statusChanged) this.pending.statusChanges.push({ tripId: t.id, at, value: t.status });
    if (delayChanged) this.pending.delayChanges.push({ tripId: t.id, at, value: t.delayMinutes });
  }

  private onFinal(e: TripFinalEvent): void {
    if (!this.admit(3)) return;
    const t = e.trip;
    const prev = this.known.get(e.tripId);
    if (t) {
      if (!prev || prev.status !== t.status) this.pending.statusChanges.push({ tripId: t.id, at: e.fetchedAt, value: t.status });
      if (prev ? prev.delay !== t.delayMinutes : t.delayMinutes !== null) this.pending.delayChanges.push({ tripId: t.id, at: e.fetchedAt, value: t.delayMinutes });
    }
    // A final answer ends the trip: nothing more will change it.
    this.known.delete(e.tripId);
    this.pending.finals.set(e.tripId, { tripId: e.tripId, fetchedAt: e.fetchedAt, trip: t ? tripRow(t, e.fetchedAt) : null });
    this.arrived();
  }

  private schedule(ms: number): void {
    if (this.closed && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().finally(() => {
        if (!this.closed) this.schedule(this.failing ? this.retryMs : this.flushIntervalMs);
      });
    }, ms);
    // The recorder never keeps a process alive on its own; close() writes what is left.
    this.timer.unref?.();
  }

  /**
   * Writes what is pending now (one batch, one transaction), after a write already under way. Never throws: a
   * failure keeps the rows for the retry.
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.empty) return;
    this.flushing = this.writePending().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.empty) return;
    const batch = this.pending;
    const since = this.pendingSince;
    this.pending = new Batch();
    this.pendingSince = null;
    try {
      this.store ??= await this.opts.store();
      await this.writeBatch(this.store.db, batch);
      const end = this.now();
      this.stats.writtenRows += batch.rows;
      this.stats.batches += 1;
      if (since !== null) {
        this.stats.lastLagMs = end - since;
        this.stats.maxLagMs = Math.max(this.stats.maxLagMs, end - since);
      }
      if (this.failing) await this.resumed(end);
    } catch (e) {
      // Put the batch back in front of what arrived meanwhile, as far as the bound allows.
      this.pending.absorbOlder(batch);
      this.pendingSince = since ?? this.pendingSince;
      const overflow = this.pending.rows - this.maxBufferRows;
      if (overflow > 0) this.dropOldestFixes(overflow);
      this.failed(e);
    }
    this.stats.pendingRows = this.pending.rows;
  }

  private dropOldestFixes(n: number): void {
    let dropped = 0;
    for (const k of this.pending.fixes.keys()) {
      if (dropped >= n) break;
      this.pending.fixes.delete(k);
      dropped++;
    }
    this.stats.droppedRows += dropped;
  }

  private failed(e: unknown): void {
    const reason = describeStoreError(e);
    this.retryMs = Math.min(this.maxRetryMs, Math.max(1_000, this.retryMs * 2));
    if (!this.failing) {
      const since = this.now();
      const rule = this.opts.timeRule?.() ?? { kind: 'offset', minutes: 0 };
      this.failing = { since, sinceText: formatPartnerTimestamp(since, rule).slice(11, 16), reason, droppedAtStart: this.stats.droppedRows };
      this.stats.failing = { since, reason };
      this.log({ msg: 'history not recording', reason, pendingRows: this.pending.rows });
    }
  }

  private async resumed(now: number): Promise<void> {
    const f = this.failing!;
    this.failing = null;
    this.stats.failing = null;
    this.retryMs = 0;
    const dropped = this.stats.droppedRows - f.droppedAtStart;
    this.log({ msg: 'history recording again', level: 'info', since: f.since, droppedRows: dropped });
    try {
      await this.store!.db.insert(recorderGaps).values({ fromAt: f.since, toAt: now, droppedRows: dropped, reason: f.reason });
    } catch (e) {
      this.log({ msg: 'history gap not recorded', reason: describeStoreError(e) });
    }
  }

  /** Stops listening, writes what is pending (bounded by `deadlineMs`), and stops the timer. */
  async close(deadlineMs = 10_000): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const last = (async () => {
      await this.flushing;
      await this.flush();
    })();
    let timeout: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([last, new Promise((r) => (timeout = setTimeout(r, deadlineMs)))]);
    clearTimeout(timeout);
    this.closed = true;
    if (this.pending.rows > 0) this.log({ msg: 'history rows not written at shutdown', pendingRows: this.pending.rows });
  }
}
