// Unit tests of the benchmark helpers: `npx vitest run --config bench/vitest.config.ts`. The project's own
// config only looks in lib/, app/, components/ and scripts/; this one takes its aliases and looks in bench/.
import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

export default defineConfig({
  resolve: base.resolve,
  test: { include: ['bench/**/*.test.ts'], environment: 'node' },
});
