// One HTTP/1.1 request written by hand on a socket, for what a client library would normalise or refuse to send:
// a `#` in the request target, a Host header naming another site or not a host at all.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as received (chunked framing included, when the server chose it). */
  body: string;
}

export function rawRequest(appUrl: string, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  const { hostname, port } = new URL(appUrl);
  const head = [`${method} ${target} HTTP/1.1`, ...Object.entries({ Host: `${hostname}:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}`), 'Connection: close', '', ''].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(60_000, () => socket.destroy(new Error(`no complete answer to ${method} ${target} within 60 s`)));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
      if (!m) return reject(new Error(`not an HTTP answer: ${text.slice(0, 200)}`));
      const out: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) out[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(m[1]), headers: out, body: text.slice(split + 4) });
    });
    socket.write(head);
  });
}
