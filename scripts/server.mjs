// Fleetmap's production server: the Next.js request handler behind a plain Node HTTP server.
// It exists for one reason: Next.js cannot route some methods (TRACE answers a bare 500 inside Next), so
// methods outside the ones HTTP clients of this app use are refused here with a 405 before Next sees them.
//
//   node scripts/server.mjs [--port 3000] [--host 127.0.0.1]     (PORT / HOST work too)
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);
// lib/http/client-key.ts reads who a request comes from here (the per-client limits on watches and lookups), and
// lib/auth the address for sign-in throttling and the audit log.
const CLIENT_ADDRESS_HEADER = 'x-fleetmap-client-address';

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
// The sign-in check at start-up (lib/auth/config.ts) refuses a reachable address without sign-in: it reads HOST.
process.env.HOST = host;
const app = next({ dev: false, dir: ROOT, hostname: host, port });
const handle = app.getRequestHandler();

try {
  await app.prepare();
} catch (err) {
  // A bad configuration lands here (instrumentation validates it): one clear message, no stack.
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
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
  // Written from the socket over anything the client sent, so the per-client limits cannot be dodged by a header.
  req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? 'unknown';
  handle(req, res);
});
server.listen(port, host, () => {
  const addr = server.address();
  console.info(`Ready on http://${host}:${typeof addr === 'object' && addr ? addr.port : port}`);
});
// Hooks the app registers at start (lib/server/start.ts): the recorder writes its last batch and the store closes.
async function runShutdownHooks() {
  const hooks = globalThis[Symbol.for('fleetmap.shutdown')] ?? [];
  await Promise.allSettled(hooks.map((hook) => hook()));
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    // The recorder's flush is bounded (10 s); this is the last resort if a hook hangs.
    setTimeout(() => process.exit(0), 15_000).unref();
    runShutdownHooks().finally(() => process.exit(0));
  });
}
