import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration suites first. They are few but long (the exceptions' incidents, the cluster, the fault matrix, the
 * truth test on each store: 45 to 170 s each, mostly waiting on simulated clocks), and the files run in the order
 * given to whichever fork is free: with no timings cached (a fresh clone, as in CI) that order is the glob's, and a
 * long file met last runs alone while the other forks sit idle (the two truth tests started at 209 s of a 295 s run).
 * Within each group the base order stays (the longest first once a run has cached timings).
 */
class IntegrationFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const integration = (f: TestSpecification) => f.moduleId.includes('.integration.test.');
    return [...sorted.filter(integration), ...sorted.filter((f) => !integration(f))];
  }
}

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      // `server-only` throws outside a React Server Components bundle; in tests we are the server.
      'server-only': fileURLToPath(new URL('./scripts/test/server-only-stub.js', import.meta.url)),
    },
  },
  test: {
    include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'components/**/*.test.tsx', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    // In CI the store's and the cluster's services must answer: their tests fail the run rather than skip.
    globalSetup: ['lib/testing/ci-services.ts'],
    // Deadlines only stop a hung test. PGlite (WebAssembly PostgreSQL) takes seconds to start on an idle machine and
    // over 30 s on two cores at load 30 (seen in the store's tests), so the defaults are generous.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default on two cores is one fork (cores − 1), which runs the files one after another. The slow files
    // (the truth test on each store, the cluster's, the fault matrix) spend most of their time waiting on simulated
    // clocks and failovers (the suite uses about half a core on average), so four forks run them side by side.
    maxWorkers: 4,
    sequence: { sequencer: IntegrationFirst },
  },
});
