import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/find-chromium.cjs';

const executablePath: string = findChromium({ install: false });

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Each worker starts its own simulator and app server; two cores fit one at a time comfortably.
  workers: 1,
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
