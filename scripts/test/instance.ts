// One Fleetmap instance without Next.js: server start (lib/server/start.ts: the feed, the recorder, sign-in, the
// cluster) and the answers a load balancer and the live map need, over plain HTTP: /api/live (the same handler
// scripts/server/server.mjs serves), /api/health/live, /api/health/ready, /api/integration's instance section and
// /api/exceptions (live list and history).
// The cluster's integration test and benchmark start three of these: a production build of the whole app takes
// minutes on a loaded machine, and /api/live never goes through Next.js anyway.
//
//   tsx --conditions=react-server scripts/test/instance.ts --port 0      (prints {"msg":"instance ready","port":N})
import { createServer } from 'node:http';
import { exceptionsGet } from '@/lib/http/exceptions-api';
import { readiness } from '@/lib/server/health-check';
import { startServerOrExit } from '@/lib/server/start';

const i = process.argv.indexOf('--port');
const port = Number(i > 0 ? process.argv[i + 1] : process.env.PORT ?? 0);
process.env.HOST = '127.0.0.1';

async function main() {
  const app = await startServerOrExit();
  const { feed, live } = app;

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    req.headers['x-fleetmap-client-address'] = req.socket.remoteAddress ?? 'unknown';
    if (url === '/api/live' || url.startsWith('/api/live?')) {
      Promise.resolve(live({ method: req.method ?? 'GET', url, headers: req.headers })).then(
        (a) => {
          res.writeHead(a.status, a.headers);
          res.end(a.body ?? undefined);
        },
        () => json(res, 500, { error: { status: 500, message: 'The live snapshot could not be served.' } }),
      );
      return;
    }
    if (url === '/api/health/live') return json(res, 200, { live: true });
    if (url === '/api/health/ready') {
      const check = readiness(() => feed.liveSnapshot());
      return json(res, check.status, check.body);
    }
    if (url === '/api/integration') return json(res, 200, { pid: process.pid, instance: app.status.instance?.() ?? null, health: feed.health() });
    if (url === '/api/exceptions' || url.startsWith('/api/exceptions?')) {
      // The live list and the history, as the app's route answers them (the exceptions' failover test reads both).
      const request = new Request(`http://127.0.0.1${url}`, { headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : [])) });
      exceptionsGet(app.services.exceptions, request).then(
        async (r) => json(res, r.status, await r.json()),
        () => json(res, 500, { error: { status: 500, message: 'The exceptions could not be served.' } }),
      );
      return;
    }
    json(res, 404, { error: { status: 404, message: 'Not here.' } });
  });

  server.listen(port, '127.0.0.1', () => {
    const addr = server.address();
    console.info(JSON.stringify({ msg: 'instance ready', port: typeof addr === 'object' && addr ? addr.port : port, pid: process.pid }));
  });

  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      server.close();
      setTimeout(() => process.exit(0), 15_000).unref();
      void app.shutdown().finally(() => process.exit(0));
    });
  }
}

void main();
