// @ts-check
// Fleetmap's production server: the Next.js request handler behind a plain Node HTTP server. It answers three
// things itself, before Next.js:
// - methods outside the ones HTTP clients of this app use get a 405 (Next.js cannot route some: TRACE answers a
//   bare 500 inside it);
// - GET /api/live, with the application context's handler (lib/http/live-answer.ts, built in lib/server/start.ts):
//   its answers are bytes compressed once per snapshot version, which an App Router route cannot send, and
//   Next's routing would cost more CPU per request than the answer (docs/serving.md);
// - GET /gtfs-rt/vehicle-positions and /gtfs-rt/trip-updates, the same way (lib/server/gtfs-rt-guard.ts): bytes
//   encoded once per snapshot version, behind the same sign-in check; Next's routing cost 25 to 100 times the send;
// - the build's scripts and stylesheets, and MapLibre and its worker, in brotli where the browser accepts br (scripts/server/compress-static.mjs made
//   them; Next.js serves gzip only);
// - GET /metrics, with the application context's handler (lib/metrics; never behind the user sign-in: a scraper has none).
// Every answer made here carries the headers next.config.js gives every answer. Every request, answered here or by
// Next.js, is shown to the context's request observer (lib/metrics: its duration by route template), and gets a
// request id: the caller's X-Request-Id when it is a plain token (a load balancer's), else a new one, echoed in the
// answer's X-Request-Id and on every log line written while the request is served (lib/log). What this file
// reads of the app is the contract in lib/server/contract.ts, which the typecheck holds it to (`@ts-check` above).
//
//   node scripts/server/server.mjs [--port 3000] [--host 127.0.0.1] [--dev]     (PORT / HOST work too)
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import nextConfig from '../../next.config.js';
import { processLogger, requestContext as processRequestContext } from '../../lib/log/create-logger.mjs';
import { processSlot } from '../../lib/process-slot.mjs';
import { MAPLIBRE_FILES } from './maplibre-files.mjs';

/** @typedef {import('../../lib/server/contract').ServedSlot} ServedSlot */
/** @typedef {import('../../lib/http/live-answer').RawAnswer} RawAnswer */
/** @typedef {import('node:http').IncomingMessage} Req */
/** @typedef {import('node:http').ServerResponse} Res */

// Logs go to stdout and stderr. When what reads them goes away (a closed pipe: a log shipper restarted, a terminal
// gone), every write fails with EPIPE; unhandled, each failure is an uncaught exception that Next.js logs, to the
// same closed pipe, and so on: the process spun at a full core and stopped answering. The lines are lost then,
// which nothing here can help; the service goes on.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const log = processLogger();
const requestContext = processRequestContext();
const REQUEST_ID_HEADER = 'x-request-id';
const REQUEST_ID = /^[\w.:-]{1,128}$/;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);
// lib/http/client-key.ts reads who a request comes from here (the per-client limits on watches and lookups), and
// lib/auth the address for sign-in throttling and the audit log.
const CLIENT_ADDRESS_HEADER = 'x-fleetmap-client-address';

/** @param {string} name @param {string} fallback @returns {string} */
function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const value = i > 0 ? process.argv[i + 1] : undefined;
  return value ? value : fallback;
}

const port = Number(arg('port', process.env.PORT || '3000'));
const host = arg('host', process.env.HOST || '127.0.0.1');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer from 0 to 65535 (got ${JSON.stringify(String(port))}).`);
  process.exit(1);
}

const dev = process.argv.includes('--dev');
Object.assign(process.env, { NODE_ENV: dev ? 'development' : 'production' });
const app = next({ dev, dir: ROOT, hostname: host, port });
// The sign-in check at start-up (lib/auth/config.ts) refuses a reachable address without sign-in: it reads HOST.
process.env.HOST = host;
const handle = app.getRequestHandler();
// The process's one slot (lib/process-slot.mjs): the app publishes its context there (lib/server/context.ts).
const slot = /** @type {ServedSlot} */ (processSlot());

try {
  await app.prepare();
} catch (err) {
  // A bad configuration lands here (instrumentation validates it): one clear message, no stack.
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

const DIST = join(ROOT, process.env.FLEETMAP_DIST_DIR || '.next');
// The headers next.config.js gives every answer: the brotli answers carry them too.
/** @type {Record<string, string>} */
const EVERY_ANSWER = Object.fromEntries(((await /** @type {() => Promise<{ source: string, headers: { key: string, value: string }[] }[]>} */ (nextConfig.headers)()).find((h) => h.source === '/:path*')?.headers ?? []).map((h) => [h.key, h.value]));
const SCRIPT_TYPE = 'application/javascript; charset=UTF-8';

/**
 * The brotli copy of a static script or stylesheet, with how Next.js serves the original; null for anything else.
 * @param {string} pathname
 */
function brotliTwin(pathname) {
  const maplibre = MAPLIBRE_FILES.find((f) => pathname === `/${f}`);
  if (maplibre) return { file: join(DIST, `${maplibre}.br`), type: SCRIPT_TYPE, cacheControl: 'public, max-age=0' };
  const m = /^\/_next\/static\/([A-Za-z0-9._\-/]+\.(js|css))$/.exec(pathname);
  if (!m?.[1] || m[1].split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) return null;
  return { file: join(DIST, 'static', `${m[1]}.br`), type: m[2] === 'css' ? 'text/css; charset=UTF-8' : SCRIPT_TYPE, cacheControl: 'public, max-age=31536000, immutable' };
}

/** @param {string | undefined} acceptEncoding */
function acceptsBrotli(acceptEncoding) {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return name === 'br' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** @param {Res} res @param {number} status @param {string} message @param {Record<string, string>} [extra] */
function sendJsonError(res, status, message, extra = {}) {
  const body = JSON.stringify({ error: { status, message } });
  res.writeHead(status, { ...EVERY_ANSWER, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-cache', ...extra });
  res.end(body);
}

/**
 * STARTING_MESSAGE (lib/http/responses.ts): what every route answers until the application context exists.
 * @param {Res} res
 */
function sendStarting(res) {
  sendJsonError(res, 503, 'The server is starting; try again in a moment.', { 'Retry-After': '1' });
}

// An answer's headers with EVERY_ANSWER's, made once per headers object: the live handler gives every viewer of
// the same version and question the same (frozen) one.
/** @type {WeakMap<RawAnswer['headers'], Record<string, string>>} */
const mergedHeaders = new WeakMap();
/** @param {RawAnswer['headers']} headers */
function withEveryAnswer(headers) {
  let merged = mergedHeaders.get(headers);
  if (!merged) {
    merged = { ...EVERY_ANSWER, ...headers };
    if (Object.isFrozen(headers)) mergedHeaders.set(headers, merged);
  }
  return merged;
}

/**
 * Sends a handler's RawAnswer: at once when it answers synchronously (sign-in off), when its promise settles
 * otherwise (the guard checks the session first). A handler that throws or rejects is logged and answered 500.
 * @param {Res} res
 * @param {() => RawAnswer | Promise<RawAnswer>} handle
 * @param {{ what: string, failure: string, before?: (answer: RawAnswer) => void }} o
 */
function sendRaw(res, handle, o) {
  /** @param {RawAnswer} answer */
  const send = (answer) => {
    o.before?.(answer);
    res.writeHead(answer.status, withEveryAnswer(answer.headers));
    res.end(answer.body ?? undefined);
  };
  /** @param {unknown} err */
  const fail = (err) => {
    log.error({ error: err instanceof Error ? err.message : String(err) }, `${o.what} failed`);
    sendJsonError(res, 500, o.failure);
  };
  let answer;
  try {
    answer = handle();
  } catch (err) {
    fail(err);
    return;
  }
  if ('then' in answer) answer.then(send, fail);
  else send(answer);
}

/**
 * Answers /api/live (exactly that path, with any query); false for every other path.
 * @param {Req} req @param {Res} res
 */
function sendLive(req, res) {
  const url = req.url ?? '';
  if (url !== '/api/live' && !url.startsWith('/api/live?')) return false;
  const context = slot.context;
  if (!context) {
    sendStarting(res);
    return true;
  }
  sendRaw(res, () => context.live({ method: req.method ?? 'GET', url, headers: req.headers }), {
    what: '/api/live',
    failure: 'The live snapshot could not be served.',
    before: (answer) => context.observer.liveAnswer(answer, req),
  });
  return true;
}

/**
 * Answers GET and HEAD of /gtfs-rt/vehicle-positions and /gtfs-rt/trip-updates (with any query); false otherwise.
 * @param {Req} req @param {Res} res
 */
function sendGtfsRt(req, res) {
  const method = req.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const url = req.url ?? '';
  const path = url.split('?', 1)[0];
  if (path !== '/gtfs-rt/vehicle-positions' && path !== '/gtfs-rt/trip-updates') return false;
  const context = slot.context;
  if (!context) {
    sendStarting(res);
    return true;
  }
  // With sign-in on, the handler checks it first (lib/server/gtfs-rt-guard.ts) and answers later; with it off, at once.
  sendRaw(res, () => context.gtfsRt({ method, url, headers: req.headers }), { what: path, failure: 'The GTFS-Realtime feed could not be served.' });
  return true;
}

/**
 * Answers /metrics (with any query); false for every other path.
 * @param {Req} req @param {Res} res
 */
function sendMetrics(req, res) {
  const url = req.url ?? '';
  if (url !== '/metrics' && !url.startsWith('/metrics?')) return false;
  const handler = slot.context?.metrics;
  if (!handler) {
    sendStarting(res);
    return true;
  }
  handler({ method: req.method ?? 'GET', headers: req.headers, remoteAddress: req.socket.remoteAddress }).then(
    (answer) => {
      const body = answer.body === null ? undefined : Buffer.from(answer.body);
      res.writeHead(answer.status, { ...EVERY_ANSWER, ...answer.headers, ...(body ? { 'Content-Length': body.length } : {}) });
      res.end(body);
    },
    (err) => {
      log.error({ error: err instanceof Error ? err.message : String(err) }, '/metrics failed');
      sendJsonError(res, 500, 'The metrics could not be collected.');
    },
  );
  return true;
}

/** @type {Map<string, { body: Buffer, etag: string }>} */
const brotliCache = new Map();

/**
 * Answers with the brotli copy when there is one and the browser takes it; false to let Next.js answer.
 * @param {Req} req @param {Res} res
 */
function sendBrotli(req, res) {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !acceptsBrotli(req.headers['accept-encoding'])) return false;
  const twin = brotliTwin((req.url ?? '').split('?')[0] ?? '');
  if (!twin) return false;
  let entry = brotliCache.get(twin.file);
  if (!entry) {
    if (!existsSync(twin.file)) return false;
    const st = statSync(twin.file);
    entry = { body: readFileSync(twin.file), etag: `W/"br-${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"` };
    brotliCache.set(twin.file, entry);
  }
  const headers = { ...EVERY_ANSWER, 'Content-Type': twin.type, 'Cache-Control': twin.cacheControl, 'Content-Encoding': 'br', Vary: 'Accept-Encoding', ETag: entry.etag };
  if (req.headers['if-none-match'] === entry.etag) {
    res.writeHead(304, headers).end();
    return true;
  }
  res.writeHead(200, { ...headers, 'Content-Length': entry.body.length });
  res.end(req.method === 'HEAD' ? undefined : entry.body);
  return true;
}

const server = createServer((req, res) => {
  const given = req.headers[REQUEST_ID_HEADER];
  const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  req.headers[REQUEST_ID_HEADER] = requestId;
  res.setHeader('X-Request-Id', requestId);
  requestContext.run({ requestId }, () => serve(req, res));
});

/** @param {Req} req @param {Res} res */
function serve(req, res) {
  slot.context?.observer.request(req, res);
  if (!ALLOWED_METHODS.has(req.method ?? '')) {
    sendJsonError(res, 405, 'This method is not allowed here; Fleetmap answers GET.', { Allow: 'GET, HEAD, OPTIONS', 'Cache-Control': 'no-store' });
    return;
  }
  // A fragment never leaves a browser; a target holding `#` is crafted, and URL parsers and raw readings disagree
  // on where its query ends (the sign-in check and a handler would read two questions).
  if ((req.url ?? '').includes('#')) {
    sendJsonError(res, 400, 'A request target never holds a fragment (#); this one was refused.', { 'Cache-Control': 'no-store' });
    return;
  }
  // Written from the socket over anything the client sent, so the per-client limits cannot be dodged by a header.
  req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? 'unknown';
  if (sendLive(req, res) || sendGtfsRt(req, res) || sendMetrics(req, res) || sendBrotli(req, res)) return;
  handle(req, res);
}
// Idle keep-alive connections stay open longer than the pages' 5 s poll and than a reverse proxy's usual idle
// timeout (60 s): with Node's 5 s default, a client reusing a connection just as the server closed it got
// ECONNRESET (seen from a test's poll on a loaded machine), and a proxy in front would see the same race.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
// Next.js keeps the process alive on an uncaught exception (it only logs it), so a server that cannot listen (the
// port taken, an address this machine does not have) would sit there serving nothing: say so and exit. The app's
// start-up checks (instrumentation, lib/server/start.ts) run meanwhile and may refuse the start with a more useful
// sentence (a reachable HOST without sign-in): they finish first, and resolve STARTUP when they pass.
server.once('error', /** @param {NodeJS.ErrnoException} err */ async (err) => {
  await Promise.race([slot.started, new Promise((r) => setTimeout(r, 120_000))]);
  const why = err.code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use` : err.code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine` : err.message;
  log.fatal(`Fleetmap cannot listen on http://${host}:${port}: ${why}. Set PORT (or --port) and HOST (or --host).`);
  process.exit(1);
});
server.listen(port, host, () => {
  const addr = server.address();
  log.info(`Ready on http://${host}:${typeof addr === 'object' && addr ? addr.port : port}`);
});
// The context's shutdown (lib/server/start.ts): the services stop, the recorder writes its last batch, the store closes.
async function shutdownApp() {
  await slot.context?.shutdown().catch(() => {});
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    // The recorder's flush is bounded (10 s); this is the last resort if a hook hangs.
    setTimeout(() => process.exit(0), 15_000).unref();
    shutdownApp().finally(() => process.exit(0));
  });
}
