// Unit tests of the benchmark helpers alone: `npx vitest run --config bench/vitest.config.ts`. The project's own
// config (vitest.config.ts, what `npm test` runs) includes bench/**/*.test.ts with everything else; this one takes
// its aliases and looks in bench/ only.
import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

export default defineConfig({
  resolve: base.resolve,
  test: { include: ['bench/**/*.test.ts'], environment: 'node' },
});
