// A pass-through HTTP proxy in front of the simulator that records every upstream request path, so a test can say
// which requests the app made (and which it did not).
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Upstream requests as the proxy saw them (path after /api/v1/partner). */
export interface UpstreamLog {
  paths: { at: number; path: string }[];
}

/**
 * A pass-through HTTP proxy in front of the simulator that records every request path. Requests that come in
 * before the simulator is known wait for it (the app starts polling as soon as it is up).
 */
export async function recordingProxy(log: UpstreamLog) {
  let setTarget!: (origin: string) => void;
  const target = new Promise<string>((resolve) => (setTarget = resolve));
  const server: Server = createServer((req, res) => {
    void target.then((origin) => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname.startsWith('/api/v1/partner')) log.paths.push({ at: Date.now(), path: url.pathname.slice('/api/v1/partner'.length) });
      const up = httpRequest(url, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1/partner`,
    setTarget,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

