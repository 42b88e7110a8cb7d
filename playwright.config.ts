import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/test/find-chromium.cjs';

const executablePath: string = findChromium({ install: false });

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Each worker starts its own simulator and app server (free ports, its own data directory), so specs never
  // share state across workers. Most of a test's time is spent waiting on the pages' 5 s polls, so two workers
  // fit two cores; E2E_WORKERS=1 runs them one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
