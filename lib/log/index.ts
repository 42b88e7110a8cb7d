import 'server-only';
import type { Level, Logger } from 'pino';
import { processLogger } from './create-logger.mjs';

// Logging for the server: one JSON line per event (pino, lib/log/create-logger.mjs), levels by LOG_LEVEL, the
// request id of the request being served, never a secret.

export { LOG_LEVELS, logLevelOf } from './create-logger.mjs';

export function logger(): Logger {
  return processLogger();
}

/** A structured line: `msg` and its fields; `level` overrides the level of the function that logs it. */
export type LogLine = { msg: string; level?: Level } & Record<string, unknown>;

/**
 * The `log(line)` the feed, the recorder and the cluster take (they log one object per event), at `level` unless
 * the line names its own.
 */
export function logLine(level: Level): (line: Record<string, unknown>) => void {
  return (line) => {
    const { msg, level: own, ...fields } = line as LogLine;
    logger()[own ?? level](fields, String(msg));
  };
}
