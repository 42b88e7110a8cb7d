// The secure default, against the built server: served on an address other machines reach with no AUTH_MODE, it
// refuses to start (before listening) with one sentence naming the ways out. On loopback with nothing set it
// starts as it always did, and says so in the header.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test as plain } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { freePort, ROOT } from './support/stack';

// No stack of its own: this test starts the one server it needs.
plain('a reachable HOST without AUTH_MODE: the server refuses to start, in one sentence', async () => {
  // 192.0.2.1 (TEST-NET-1) is never assigned to a machine: whatever happens, nothing is served on a network.
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, FLEETMAP_DIST_DIR: process.env.FLEETMAP_E2E_DIST ?? '.next-e2e', PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1/partner', PARTNER_API_KEY: 'k' };
  delete env.AUTH_MODE;
  const proc = spawn(process.execPath, [join(ROOT, 'scripts', 'server', 'server.mjs'), '--port', String(port), '--host', '192.0.2.1'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
  expect(code).toBe(1);
  const problems = out.split('\n').filter((l) => l.startsWith('  - '));
  expect(problems).toEqual([
    '  - HOST=192.0.2.1 lets other machines reach Fleetmap, and no sign-in is configured: set AUTH_MODE=oidc (with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET) or AUTH_MODE=local (accounts from `npm run users -- add NAME --role ROLE`), or set AUTH_MODE=none to serve it without sign-in on purpose',
  ]);
});

test('loopback with nothing set: no sign-in, and the header says so', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('no sign-in (local only)')).toBeVisible();
  // Everything stays open, the admin-only status included.
  expect((await page.request.get('/api/status')).status()).toBe(200);
});
