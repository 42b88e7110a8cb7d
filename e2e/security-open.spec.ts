// With sign-in off (the default on loopback): a web page another site serves cannot read the fleet by pointing its
// own name at this machine (DNS rebinding), and a Host that is not a host name is bad input, not a crash.
// Security review, issue 28, finding 3. Raw sockets: a client library would not send these Host headers.
import { expect, test } from './support/fixtures';
import { rawRequest } from './support/raw-http';

test('a request naming another site is refused on every route; loopback names are answered', async ({ stack }) => {
  test.setTimeout(240_000);
  const port = new URL(stack.appUrl).port;
  for (const path of ['/api/status', '/api/integration', '/api/live', '/']) {
    const a = await rawRequest(stack.appUrl, path, { Host: `rebind.attacker.example:${port}` });
    expect(a.status, `${path} for rebind.attacker.example`).toBe(421);
    expect(a.body).toContain('answers only requests addressed to localhost');
    expect(a.body).not.toContain('"vehicles"');
  }
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
    expect((await rawRequest(stack.appUrl, '/api/status', { Host: host })).status, host).toBe(200);
    expect((await rawRequest(stack.appUrl, '/api/live', { Host: host })).status, host).toBe(200);
  }
});

test('a malformed Host on /api/live is a 400, with no failure logged', async ({ stack }) => {
  for (const host of ['[zz', 'a b', 'x:99999999']) {
    const a = await rawRequest(stack.appUrl, '/api/live', { Host: host });
    expect(a.status, host).toBe(400);
    expect(a.body).toContain('The Host header is not a host name.');
  }
  expect(stack.appLogs()).not.toContain('/api/live failed');
});
