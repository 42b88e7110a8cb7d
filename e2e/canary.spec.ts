// The key must never leave the server: build and run with a random key, then look for it everywhere a
// browser or an operator could see it — the build output, every page, every API answer and header, the logs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './support/fixtures';
import { ROOT } from './support/stack';

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) filesUnder(p, out);
    else out.push(p);
  }
  return out;
}

const PAGES = ['/', '/delays', '/wall', '/fleet', '/status', '/?trip=1', '/wall?routes=M15&theme=light'];
const API = ['/api/live', '/api/live?watch=1', '/api/status', '/api/routes', '/api/buses', '/api/network', '/api/routes/1/stops', '/api/trips/1', '/api/trips/2147483647', '/api/trips/abc', '/api/integration', '/api/buses/last-trips'];

test('the API key appears nowhere: build output, pages, API answers, headers, logs', async ({ request, stack }) => {
  const key = stack.apiKey;
  expect(key).toMatch(/^canary-[0-9a-f]{24}$/);

  // The key really is in use: the feed gets authorized answers with it.
  await expect
    .poll(async () => (await (await request.get(`${stack.appUrl}/api/status`)).json()).state, { timeout: 60_000 })
    .toBe('ok');

  const dist = join(ROOT, process.env.FLEETMAP_E2E_DIST ?? '.next-e2e');
  const files = filesUnder(dist);
  expect(files.length).toBeGreaterThan(50);
  const needle = Buffer.from(key);
  const leaking = files.filter((f) => readFileSync(f).includes(needle));
  expect(leaking, 'build files containing the key').toEqual([]);

  for (const path of [...PAGES, ...API]) {
    const res = await request.get(`${stack.appUrl}${path}`);
    const body = await res.text();
    expect(body.length, `${path} answered`).toBeGreaterThan(0);
    expect(body.includes(key), `${path} body`).toBe(false);
    expect(JSON.stringify(res.headers()).includes(key), `${path} headers`).toBe(false);
  }

  const logs = stack.appLogs();
  expect(logs.length).toBeGreaterThan(0);
  expect(logs.includes(key), 'server log output').toBe(false);
});
