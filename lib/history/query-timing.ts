import 'server-only';

// How long the store's reads and writes take, told to whoever listens (lib/metrics). The history knows nothing of
// its listeners. One timing belongs to the application context (lib/server/start.ts makes it): the recorder times its
// writes with it, the routes read through its timed reads (lib/history/queries.ts timedReads, the context's
// `storeReads`), and the metrics listen to it. Route handlers run in bundles of their own, each with its own copy of
// this module, but they reach this one instance through the context, so no process-wide registry is needed.

/** A bounded name per kind of statement (never its parameters). */
export type StoreQuery = 'write_batch' | 'routes_over_period' | 'recorded_trip' | 'bus_track' | 'fleet_at' | 'last_on_trip';

export type StoreQueryListener = (query: StoreQuery, seconds: number, ok: boolean) => void;

export class StoreQueryTiming {
  private readonly listeners = new Set<StoreQueryListener>();

  /** Returns the function that removes the listener. */
  listen(listener: StoreQueryListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** `fn`, timed under `query` on every call. */
  time<A extends unknown[], R>(query: StoreQuery, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      const started = performance.now();
      let ok = false;
      try {
        const r = await fn(...args);
        ok = true;
        return r;
      } finally {
        const seconds = (performance.now() - started) / 1000;
        for (const l of this.listeners) {
          try {
            l(query, seconds, ok);
          } catch {
            // A listener's bug must not fail the query it watched.
          }
        }
      }
    };
  }
}
