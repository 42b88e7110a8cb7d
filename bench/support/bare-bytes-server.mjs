// The peer of the /api/live load benchmark: a bare node:http server that answers every GET with bytes it read
// once at start (the same precompressed answers the app sent), with the headers the app sent with them
// (<file>.headers.json). No routing, no logic: the ceiling an HTTP answer of that size can reach on this machine.
//
//   node bench/support/bare-bytes-server.mjs <encoding> /full=<file> /delta=<file> ...     prints {"port":N}
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [encoding, ...routes] = process.argv.slice(2);
const answers = new Map(
  routes.map((r) => {
    const [path, file] = r.split('=');
    const body = readFileSync(file);
    // The headers the app sent with these bytes (security headers included), when the caller kept them.
    const kept = existsSync(`${file}.headers.json`) ? JSON.parse(readFileSync(`${file}.headers.json`, 'utf8')) : null;
    const headers = kept ?? { 'Cache-Control': 'no-cache', ETag: 'W/"bare-1"', Vary: 'Accept-Encoding', 'Content-Type': 'application/json' };
    headers['content-length'] = String(body.length);
    // Kept headers carry the app's own content-encoding, or none (a protobuf feed the app sends as it is).
    if (!kept && encoding !== 'identity') headers['content-encoding'] = encoding;
    return [path, { body, headers }];
  }),
);

const server = createServer((req, res) => {
  const a = answers.get((req.url ?? '').split('?')[0]);
  if (!a) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, a.headers);
  res.end(a.body);
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
