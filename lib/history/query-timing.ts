import 'server-only';

// How long the store's reads and writes take, told to whoever listens (lib/metrics, wired at server start).
// The history knows nothing of its listeners. The listeners live on globalThis: route handlers run in bundles of
// their own, each with its own copy of this module, and they must reach the listener the start registered.

/** A bounded name per kind of statement (never its parameters). */
export type StoreQuery = 'write_batch' | 'routes_over_period' | 'recorded_trip' | 'bus_track' | 'fleet_at' | 'last_on_trip';

export type StoreQueryListener = (query: StoreQuery, seconds: number, ok: boolean) => void;

const LISTENERS = Symbol.for('fleetmap.store-query-listeners');
type Holder = { [LISTENERS]?: Set<StoreQueryListener> };

const listeners = (): Set<StoreQueryListener> => ((globalThis as Holder)[LISTENERS] ??= new Set());

/** Returns the function that removes the listener. */
export function onStoreQuery(listener: StoreQueryListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** `fn`, timed under `query` on every call. */
export function timedQuery<A extends unknown[], R>(query: StoreQuery, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    const started = performance.now();
    let ok = false;
    try {
      const r = await fn(...args);
      ok = true;
      return r;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const l of listeners()) {
        try {
          l(query, seconds, ok);
        } catch {
          // A listener's bug must not fail the query it watched.
        }
      }
    }
  };
}
