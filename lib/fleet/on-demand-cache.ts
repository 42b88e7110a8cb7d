import 'server-only';
import type { Clock } from './clock';
import { failureFrom, type Failure } from './failure';

// Answers to on-demand calls (a dispatcher opening a trip, a route's stops): cached briefly, one in-flight
// request per key however many viewers ask at once, and on upstream trouble the last good value with its age.

export type Answer<T> = { ok: true; value: T; fetchedAt: number } | { ok: false; failure: Failure };

export interface CacheTtl {
  /** A good value is served without asking again for this long. */
  okMs: number;
  /** An upstream 404 is remembered for this long. */
  notFoundMs: number;
  /** Other failures are remembered this long, so a broken upstream is not asked once per viewer. */
  errorMs: number;
  /** A good value older than this is no longer offered in place of a failure. */
  staleMaxMs: number;
}

interface Entry<T> {
  value?: T;
  fetchedAt?: number;
  failure?: Failure;
  failedAt?: number;
}

/** Entries kept by default; ids come from viewers, so this bounds the memory an id sweep could take. */
const MAX_ENTRIES = 5_000;

export class OnDemandCache<T> {
  private entries = new Map<string, Entry<T>>();
  private inflight = new Map<string, Promise<Answer<T>>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttl: CacheTtl,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  /** The stored good value, whatever its age. */
  peek(key: string): { value: T; fetchedAt: number } | null {
    const e = this.entries.get(key);
    return e?.value !== undefined && e.fetchedAt !== undefined ? { value: e.value, fetchedAt: e.fetchedAt } : null;
  }

  put(key: string, value: T, fetchedAt: number): void {
    this.set(key, { value, fetchedAt });
  }

  /** Forgets every answer (their times were read under a time rule that no longer holds). */
  clear(): void {
    this.entries.clear();
  }

  /**
   * The cached answer, the request in flight for the key, or a new one. `admit` is asked only when a new request
   * would be sent: the failure it returns is answered, not remembered (it concerns who asked, not the key).
   */
  get(key: string, load: () => Promise<T>, notFoundMessage: string, admit?: () => Failure | null): Promise<Answer<T>> {
    const now = this.clock.now();
    const e = this.entries.get(key);
    if (e?.value !== undefined && e.fetchedAt !== undefined && now - e.fetchedAt < this.ttl.okMs) {
      return Promise.resolve({ ok: true, value: e.value, fetchedAt: e.fetchedAt });
    }
    if (e?.failure && e.failedAt !== undefined) {
      const ttl = e.failure.status === 404 ? this.ttl.notFoundMs : this.ttl.errorMs;
      if (now - e.failedAt < ttl) return Promise.resolve(this.failed(e, e.failure, now));
    }
    const running = this.inflight.get(key);
    if (running) return running;
    const refused = admit?.() ?? null;
    if (refused) return Promise.resolve(this.failed(e ?? {}, refused, now));
    const p = load().then(
      (value): Answer<T> => {
        const fetchedAt = this.clock.now();
        this.set(key, { value, fetchedAt });
        return { ok: true, value, fetchedAt };
      },
      (err: unknown): Answer<T> => {
        const at = this.clock.now();
        const failure = failureFrom(err, notFoundMessage, at);
        const prev = this.entries.get(key);
        // A 404 means the thing is gone: its old value must not be served any more.
        const next: Entry<T> = failure.status === 404 ? { failure, failedAt: at } : { ...prev, failure, failedAt: at };
        this.set(key, next);
        return this.failed(next, failure, at);
      },
    );
    const tracked = p.finally(() => this.inflight.delete(key));
    this.inflight.set(key, tracked);
    return tracked;
  }

  private failed(e: Entry<T>, failure: Failure, now: number): Answer<T> {
    if (failure.status !== 404 && e.value !== undefined && e.fetchedAt !== undefined && now - e.fetchedAt < this.ttl.staleMaxMs) {
      return { ok: true, value: e.value, fetchedAt: e.fetchedAt };
    }
    return { ok: false, failure };
  }

  private set(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
