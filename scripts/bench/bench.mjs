// `npm run bench [-- --only <name>[,<name>]] [--quick]`: the benchmarks in bench/ (TypeScript, run through
// tsx). The app is built into .next-bench when its sources changed since the last bench build, so the
// build `npm start` or the e2e tests use is never touched.
import { require as tsxRequire } from 'tsx/cjs/api';
import { buildIfStale } from '../server/next-build.mjs';

// Any URL will do at build time: nothing may call the upstream (or read a key) while building.
const BUILD_ENV = { PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1/partner' };

// bench/ is CommonJS TypeScript (it finds the repo by __dirname, as e2e/support/stack.ts does): load it as such.
const { main, UsageError } = tsxRequire('../../bench/run.ts', import.meta.url);
try {
  process.exitCode = await main(process.argv.slice(2), {
    buildApp: (distDir) => {
      if (buildIfStale({ distDir, env: BUILD_ENV })) console.log(`built the app into ${distDir}`);
    },
  });
} catch (err) {
  const usage = err instanceof UsageError;
  (usage && err.isHelp ? console.log : console.error)(usage ? err.message : (err?.stack ?? err));
  process.exitCode = usage && err.isHelp ? 0 : 1;
}
