import type { Logger } from 'pino';

export declare const LOG_LEVELS: readonly ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export declare const REQUEST_CONTEXT: unique symbol;
export declare function logLevelOf(env: Record<string, string | undefined>): (typeof LOG_LEVELS)[number];
export declare function createLogger(env?: Record<string, string | undefined>, destination?: NodeJS.WritableStream): Logger;
export declare function processLogger(): Logger;
