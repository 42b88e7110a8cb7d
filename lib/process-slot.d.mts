import type { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

export interface ProcessSlot {
  /** The application context (lib/server/context.ts gives it its type); absent until server start has built it. */
  context?: unknown;
  /** Set by server start as it begins (lib/server/context.ts claimAppStart): a process starts once. */
  claimed?: boolean;
  /**
   * Resolved by server start once its checks have passed. server.mjs waits on it before it reports a failure to
   * listen, so that a refused configuration speaks first.
   */
  started: Promise<void>;
  markStarted(): void;
  /** The process's logger (lib/log/create-logger.mjs processLogger). */
  logger?: Logger;
  /** Holds `{ requestId }` while server.mjs serves a request (lib/log/create-logger.mjs requestContext). */
  requestContext?: AsyncLocalStorage<{ requestId: string }>;
}

export declare function processSlot(): ProcessSlot;
