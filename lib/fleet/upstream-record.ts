import 'server-only';
import type { HealthTransition, RecordedUpstreamError, RequestMinute, UpstreamRecord } from '@/lib/model';
import type { FeedEvents, TypedEmitter } from './events';

// The feed's memory of its last hour for the status page: requests per clock minute by kind, 429s, the newest
// errors with their correlation ids, and the health's changes of state. In memory and bounded, so it costs the
// same after a month as after an hour; what must outlive a restart is the recorder's job (lib/history).

const MINUTE_MS = 60_000;
const KEPT_MINUTES = 60;
const KEPT_ERRORS = 100;
const KEPT_TRANSITIONS = 100;

export class UpstreamRecorder {
  private readonly minutes: RequestMinute[] = [];
  private readonly errors: RecordedUpstreamError[] = [];
  private readonly transitions: HealthTransition[] = [];
  private startedAt: number | null = null;

  constructor(events: TypedEmitter<FeedEvents>) {
    events.on('request', (e) => {
      this.startedAt ??= e.at;
      const minute = this.minuteOf(e.at);
      minute.byKind[e.kind] = (minute.byKind[e.kind] ?? 0) + 1;
      if (e.status === 429) minute.rateLimited429++;
      if (!e.ok) minute.failed++;
      // A 404 names a missing thing (a trip that ended), not trouble with the upstream: the health ignores it too.
      if (e.error && e.error.status !== 404) {
        this.errors.unshift({ ...e.error, operation: e.kind });
        if (this.errors.length > KEPT_ERRORS) this.errors.length = KEPT_ERRORS;
      }
    });
    events.on('health', (e) => {
      this.startedAt ??= e.at;
      this.transitions.push({ at: e.at, from: e.from, to: e.to, message: e.message });
      if (this.transitions.length > KEPT_TRANSITIONS) this.transitions.shift();
    });
  }

  record(now: number): UpstreamRecord {
    const from = minuteStart(now) - (KEPT_MINUTES - 1) * MINUTE_MS;
    this.drop(from);
    const hourAgo = now - KEPT_MINUTES * MINUTE_MS;
    return {
      since: Math.max(this.startedAt ?? now, from),
      minutes: this.minutes.map((m) => ({ ...m, byKind: { ...m.byKind } })),
      errors: this.errors.filter((e) => e.at >= hourAgo),
      transitions: this.transitions.filter((t) => t.at >= hourAgo),
    };
  }

  private minuteOf(at: number): RequestMinute {
    const start = minuteStart(at);
    const last = this.minutes.at(-1);
    if (last && last.at === start) return last;
    // Answers arrive in time order, give or take a request in flight across a minute's edge.
    const earlier = this.minutes.find((m) => m.at === start);
    if (earlier) return earlier;
    const m: RequestMinute = { at: start, byKind: {}, rateLimited429: 0, failed: 0 };
    this.minutes.push(m);
    this.minutes.sort((a, b) => a.at - b.at);
    this.drop(start - (KEPT_MINUTES - 1) * MINUTE_MS);
    return m;
  }

  private drop(from: number): void {
    let n = 0;
    while (n < this.minutes.length && this.minutes[n]!.at < from) n++;
    if (n > 0) this.minutes.splice(0, n);
  }
}

function minuteStart(at: number): number {
  return Math.floor(at / MINUTE_MS) * MINUTE_MS;
}
