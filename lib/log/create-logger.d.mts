import type { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

export declare const LOG_LEVELS: readonly ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export declare function logLevelOf(env: Record<string, string | undefined>): (typeof LOG_LEVELS)[number];
export declare function createLogger(env?: Record<string, string | undefined>, destination?: NodeJS.WritableStream): Logger;
export declare function processLogger(): Logger;
export declare function requestContext(): AsyncLocalStorage<{ requestId: string }>;
