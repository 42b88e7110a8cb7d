// Fleetmap's production server: the Next.js request handler behind a plain Node HTTP server.
// It exists for two reasons. Next.js cannot route some methods (TRACE answers a bare 500 inside Next), so
// methods outside the ones HTTP clients of this app use are refused here with a 405 before Next sees them. And
// Next.js serves its scripts gzip-compressed only: where the browser accepts br, the brotli copies the build made
// (scripts/compress-static.mjs) are sent instead, with the same headers.
//
//   node scripts/server.mjs [--port 3000] [--host 127.0.0.1]     (PORT / HOST work too)
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import nextConfig from '../next.config.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const port = Number(arg('port', process.env.PORT || '3000'));
const host = arg('host', process.env.HOST || '127.0.0.1');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer from 0 to 65535 (got ${JSON.stringify(String(port))}).`);
  process.exit(1);
}

process.env.NODE_ENV = 'production';
const app = next({ dev: false, dir: ROOT, hostname: host, port });
const handle = app.getRequestHandler();

try {
  await app.prepare();
} catch (err) {
  // A bad configuration lands here (instrumentation validates it): one clear message, no stack.
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

const DIST = join(ROOT, process.env.FLEETMAP_DIST_DIR || '.next');
// The headers next.config.js gives every answer: the brotli answers carry them too.
const EVERY_ANSWER = Object.fromEntries(((await nextConfig.headers()).find((h) => h.source === '/:path*')?.headers ?? []).map((h) => [h.key, h.value]));
const SCRIPT_TYPE = 'application/javascript; charset=UTF-8';

/** The brotli copy of a static script or stylesheet, with how Next.js serves the original; null for anything else. */
function brotliTwin(pathname) {
  if (pathname === '/maplibre-gl-worker.mjs') return { file: join(DIST, 'maplibre-gl-worker.mjs.br'), type: SCRIPT_TYPE, cacheControl: 'public, max-age=0' };
  const m = /^\/_next\/static\/([A-Za-z0-9._\-/]+\.(js|css))$/.exec(pathname);
  if (!m || m[1].split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) return null;
  return { file: join(DIST, 'static', `${m[1]}.br`), type: m[2] === 'css' ? 'text/css; charset=UTF-8' : SCRIPT_TYPE, cacheControl: 'public, max-age=31536000, immutable' };
}

function acceptsBrotli(acceptEncoding) {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return name === 'br' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

const brotliCache = new Map();

/** Answers with the brotli copy when there is one and the browser takes it; false to let Next.js answer. */
function sendBrotli(req, res) {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !acceptsBrotli(req.headers['accept-encoding'])) return false;
  const twin = brotliTwin((req.url ?? '').split('?')[0]);
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
  if (!ALLOWED_METHODS.has(req.method ?? '')) {
    const body = JSON.stringify({ error: { status: 405, message: 'This method is not allowed here; Fleetmap answers GET.' } });
    res.writeHead(405, {
      Allow: 'GET, HEAD, OPTIONS',
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (sendBrotli(req, res)) return;
  handle(req, res);
});
server.listen(port, host, () => {
  const addr = server.address();
  console.info(`Ready on http://${host}:${typeof addr === 'object' && addr ? addr.port : port}`);
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
