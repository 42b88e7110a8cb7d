// The one logger of a Fleetmap process (pino): JSON lines on stdout, levels by LOG_LEVEL, the request id of the
// request being served on every line logged while serving it, and no secret. Plain JavaScript, so that
// scripts/server/server.mjs (which runs outside the app's bundles) and the app share one logger: the first to ask
// makes it and keeps it in the process's slot (lib/process-slot.mjs), where every bundle finds it.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';
import { processSlot } from '../process-slot.mjs';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];


// Keys whose values are secrets wherever they appear in a line (one level deep too). The app logs none of them;
// this is the second wall. The third: the values of the secret variables are cut out of every line written.
const SECRET_KEYS = ['apiKey', 'key', 'password', 'token', 'secret', 'clientSecret', 'authorization', 'cookie', 'sessionId', 'session', 'databaseUrl', 'connectionString'];
const SECRET_VARIABLES = ['PARTNER_API_KEY', 'METRICS_TOKEN', 'OIDC_CLIENT_SECRET', 'DATABASE_URL', 'REDIS_URL'];

/** LOG_LEVEL's level; an invalid value logs at info (the start-up check refuses it with a message). */
export function logLevelOf(env) {
  const level = (env.LOG_LEVEL ?? '').trim().toLowerCase();
  return LOG_LEVELS.includes(level) ? level : 'info';
}

export function createLogger(env = process.env, destination = process.stdout) {
  const secrets = SECRET_VARIABLES.map((name) => env[name]?.trim()).filter((v) => v && v.length >= 8);
  return pino(
    {
      level: logLevelOf(env),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const requestId = processSlot().requestContext?.getStore()?.requestId;
        return requestId ? { requestId } : {};
      },
      redact: { paths: SECRET_KEYS.flatMap((k) => [k, `*.${k}`]), censor: '[redacted]' },
      hooks: {
        streamWrite: (line) => secrets.reduce((s, secret) => (s.includes(secret) ? s.split(secret).join('[redacted]') : s), line),
      },
    },
    destination,
  );
}

/** The process's logger. */
export function processLogger() {
  return (processSlot().logger ??= createLogger());
}

/** Where scripts/server/server.mjs runs each request, holding `{ requestId }`: every line logged meanwhile names it. */
export function requestContext() {
  return (processSlot().requestContext ??= new AsyncLocalStorage());
}
