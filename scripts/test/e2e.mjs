// `npm run test:e2e [-- playwright args]`: builds the app into .next-e2e with a random canary key in the
// environment (the canary test then searches the build for it), and runs Playwright in Debian's Chromium.
// `--build-only` stops after the build (npm test builds while the unit tests run).
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import chromium from './find-chromium.cjs';

const { findChromium } = chromium;
import { buildIfStale, ROOT } from '../server/next-build.mjs';

const DIST = process.env.FLEETMAP_E2E_DIST || '.next-e2e';
// The canary lives outside the build directory (or the build would contain it by construction).
const canaryFile = join(ROOT, 'node_modules', '.cache', 'fleetmap', 'e2e-canary');

try {
  findChromium();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

let canary = existsSync(canaryFile) ? readFileSync(canaryFile, 'utf8').trim() : '';
const buildEnv = () => ({
  PARTNER_API_KEY: canary,
  // Any URL will do at build time: nothing may call the upstream (or read the key) while building.
  PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1/partner',
});
try {
  if (!canary) {
    canary = `canary-${randomBytes(12).toString('hex')}`;
    buildIfStale({ distDir: DIST, env: buildEnv(), force: true });
  } else {
    buildIfStale({ distDir: DIST, env: buildEnv() });
  }
  mkdirSync(join(canaryFile, '..'), { recursive: true });
  writeFileSync(canaryFile, canary + '\n');
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

if (process.argv.includes('--build-only')) process.exit(0);

const res = spawnSync(process.execPath, [join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, FLEETMAP_CANARY_KEY: canary, FLEETMAP_E2E_DIST: DIST, NEXT_TELEMETRY_DISABLED: '1' },
});
process.exit(res.status ?? 1);
