// The process's one registry (lib/process-slot.mjs), as the app reads it. The slot knows nothing of what the context
// holds (it sits below every room): lib/server/context.ts gives it its type, and a room that reads one part of it
// (lib/auth, the sign-in service) names only that part. Whatever a route shares with server start (the embedded
// simulator, the store's query timing, the services' listeners) is reached through the context, never through a
// key of its own.
import { processSlot, type ProcessSlot } from './process-slot.mjs';

export interface AppSlot<C> extends Omit<ProcessSlot, 'context'> {
  /** Set once, by server start, when everything is wired; absent before (requests answer 503) and after a failed start. */
  context?: C;
}

/** The process's slot, made on first use. */
export function appSlot<C>(): AppSlot<C> {
  return processSlot() as AppSlot<C>;
}
