import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/test/find-chromium.cjs';

const executablePath: string = findChromium({ install: false });
/** The 10,000-bus smoke: the 'scale' project's one spec, and the one the 'app' project leaves out. */
const SCALE_SPEC = /scale\.spec\.ts$/;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Each worker starts its own simulator and app server (free ports, its own data directory), so specs never
  // share state across workers. Most of a test's time is spent waiting on the pages' 5 s polls (the suite kept
  // about 0.8 of one core busy with two workers), so three workers run on two cores: 9.9 min against 12.3 min with
  // two, every spec passing in both (29 November 2026). E2E_WORKERS=1 runs them one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Deadlines for events, not for speed: a passing test never waits them out. CI's machine ran the whole suite 2.2×
  // slower than this one on 7 December 2026 (the browser tests 1,646 s against 780 s), and tests that read the map
  // right after a page's first load failed there on the 90 s and 20 s these were; they are doubled.
  timeout: 180_000,
  expect: { timeout: 40_000 },
  reporter: [['list']],
  // The 10,000-bus smoke runs a simulator and an app of that size and draws 10,000 buses in software WebGL: beside
  // the other specs on two cores it slowed them into timeouts (CI on 7 December 2026: three of them failed beside it
  // and passed alone). `npm test` runs the 'app' project, then 'scale' alone; `npm run test:e2e` runs both.
  projects: [
    { name: 'app', testIgnore: SCALE_SPEC },
    // Its own output directory: a run of one project empties the directory it writes to, and the 'app' run's
    // failure screenshots and contexts must outlive the 'scale' run after it.
    { name: 'scale', testMatch: SCALE_SPEC, outputDir: './test-results-scale' },
  ],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
