import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const TEST_FILES = ['lib/testing/**', '**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**', 'scripts/test/**'];
const TESTING_ONLY = { group: ['@/lib/testing', '@/lib/testing/*', '**/lib/testing', '**/lib/testing/*', '../testing', '../testing/*'], message: 'Test doubles (lib/testing) are for tests only.' };
const BROWSER_ONLY = { group: ['@/lib/view/*', '**/lib/view/*', '../view/*'], message: 'lib/view is what only the browser shows; move what the server needs to a room both sides may import.' };
const SERVER_ROOMS = ['fleet', 'history', 'server', 'partner', 'sim', 'cluster', 'http', 'auth', 'regularity', 'exceptions', 'predictions', 'gtfs-rt', 'metrics', 'placement', 'estimate', 'model', 'time', 'csv', 'page-url', 'theme', 'geo', 'stats', 'map-style'];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ['node_modules/**', '.next/**', '.next-*/**', 'public/**', 'test-results/**', 'test-results-scale/**', 'playwright-report/**', 'e2e/artifacts/**', 'next-env.d.ts'],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['scripts/**', 'e2e/**', 'bench/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-console': 'off' },
  },
  {
    // Test doubles (fake upstream and clock, test stores, factories, fixtures) live in lib/testing, and no production
    // module may reach them: only tests, the end-to-end and benchmark harnesses and lib/testing itself import them.
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js', '**/*.cjs'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [TESTING_ONLY] }] },
  },
  {
    // lib/view is what only the browser shows. The server's rooms reach what they share with it through the rooms
    // below it (lib/placement, lib/time, lib/csv, lib/page-url, lib/theme, lib/model). Both restrictions here: a
    // later block's rule replaces an earlier one's for the same files.
    files: [`lib/{${SERVER_ROOMS.join(',')}}/**/*.{ts,tsx}`, 'app/api/**/*.ts'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [TESTING_ONLY, BROWSER_ONLY] }] },
  },
  {
    // CommonJS on purpose (loaded by Playwright's config and by ESM scripts alike).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Playwright fixtures hand their value on with a function named `use`; it is not React's hook.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
];

export default config;
