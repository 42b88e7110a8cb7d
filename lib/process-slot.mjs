// The process's one registry: a slot on globalThis under the one symbol `Symbol.for('fleetmap.app')`. Next.js loads
// instrumentation, proxy.ts and each route handler as separate module graphs, so a module variable would not be
// shared between them, and scripts/server/server.mjs (plain JavaScript outside the bundles) cannot import them at
// all. Plain JavaScript, so that server.mjs, the logger (lib/log/create-logger.mjs) and the app (lib/app-slot.ts)
// all make and read the same slot, whichever comes first. Nothing else of ours is kept on globalThis.
//
// What it holds: the application context once server start has built it (lib/server/context.ts), the promise
// server.mjs waits on before it reports a failure to listen, and the two things that exist before any context:
// the process's logger and the request context its lines read the request id from.

const APP_KEY = Symbol.for('fleetmap.app');

/** The process's slot, made on first use. */
export function processSlot() {
  const holder = /** @type {Record<symbol, any>} */ (globalThis);
  let slot = holder[APP_KEY];
  if (!slot) {
    let markStarted = () => {};
    const started = new Promise((resolve) => (markStarted = () => resolve(undefined)));
    slot = { started, markStarted };
    holder[APP_KEY] = slot;
  }
  return slot;
}
