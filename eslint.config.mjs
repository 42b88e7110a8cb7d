import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ['node_modules/**', '.next/**', '.next-*/**', 'public/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**', 'next-env.d.ts'],
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
    ignores: ['lib/testing/**', '**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**', 'scripts/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/lib/testing', '@/lib/testing/*', '**/lib/testing', '**/lib/testing/*', '../testing', '../testing/*'], message: 'Test doubles (lib/testing) are for tests only.' }] },
      ],
    },
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
