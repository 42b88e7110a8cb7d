// The process's one registry key. Next.js loads instrumentation, proxy.ts and each route handler as separate module
// graphs, so a module variable would not be shared between them, and scripts/server/server.mjs (plain JavaScript
// outside the bundles) cannot import them at all: the application context (lib/server/context.ts) is therefore
// published on globalThis, under this one symbol. Whatever a route must share with server start (the embedded
// simulator, the store's query timing, the services' listeners) is reached through the context, never through a
// key of its own. The one other use of globalThis is the process's logger (lib/log/create-logger.mjs), which
// server.mjs needs before the app, and so before this slot's context, exists.
//
// The slot knows nothing of what the context holds (it sits below every room): lib/server/context.ts gives it its
// type, and a room that reads one part of it (lib/auth, the sign-in service) names only that part.

/** server.mjs spells it `Symbol.for('fleetmap.app')`. */
export const APP_KEY: unique symbol = Symbol.for('fleetmap.app') as never;

export interface AppSlot<C> {
  /** Set once, by server start, when everything is wired; absent before (requests answer 503) and after a failed start. */
  context?: C;
  /** Set by server start as it begins (lib/server/context.ts claimAppStart): a process starts once. */
  claimed?: boolean;
  /**
   * Resolved by server start once its checks have passed. server.mjs waits on it before it reports a failure to
   * listen, so that a refused configuration speaks first. Made by whoever comes first (server.mjs, or server start).
   */
  started: Promise<void>;
  markStarted(): void;
}

/** The process's slot, made on first use. */
export function appSlot<C>(): AppSlot<C> {
  const holder = globalThis as { [APP_KEY]?: AppSlot<C> };
  let slot = holder[APP_KEY];
  if (!slot) {
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    slot = { started, markStarted };
    holder[APP_KEY] = slot;
  }
  return slot;
}
