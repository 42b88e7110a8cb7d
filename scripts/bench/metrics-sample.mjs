// `node scripts/bench/metrics-sample.mjs`: the sample scrape in docs/operations.md, taken from a running app rather
// than typed. Starts the simulator and the built app (the e2e build, .next-e2e: `node scripts/test/e2e.mjs
// --build-only` makes it), lets the feed poll until it has sent 300 upstream requests, asks /api/live as a browser
// would, scrapes /metrics and writes Fleetmap's own families (and one of the process's) between the markers of
// docs/operations.md, with when and on which commit it was taken. lib/metrics/sample.test.ts checks that the sample
// parses and holds every fleetmap_ metric the code defines.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { require as tsxRequire } from 'tsx/cjs/api';
import { ROOT } from '../server/next-build.mjs';

const { startStack } = tsxRequire('../../e2e/support/stack.ts', import.meta.url);
const { parseScrape, valueOf } = tsxRequire('../../lib/testing/prometheus.ts', import.meta.url);

export const SAMPLE_START = '<!-- sample scrape: written by `node scripts/bench/metrics-sample.mjs` from a running app; do not edit by hand -->';
export const SAMPLE_END = '<!-- end of the sample scrape -->';
const PAGE = join(ROOT, 'docs', 'operations.md');
const KEEP = (line) => /^(# (HELP|TYPE) )?(fleetmap_|http_server_request_duration_seconds|nodejs_eventloop_lag_seconds )/.test(line);

const stack = await startStack({ rateLimit: 600 });
try {
  const scrape = async () => (await fetch(`${stack.appUrl}/metrics`)).text();
  // The deadline only stops a feed that never polls (on a loaded machine it polls more slowly, not never).
  const deadline = Date.now() + 15 * 60_000;
  while (valueOf(parseScrape(await scrape()), 'fleetmap_upstream_requests_total') < 300) {
    if (Date.now() > deadline) throw new Error('The app sent fewer than 300 upstream requests in 15 minutes.');
    await new Promise((r) => setTimeout(r, 2_000));
  }
  const first = await fetch(`${stack.appUrl}/api/live`);
  const etag = first.headers.get('etag') ?? '';
  await first.arrayBuffer();
  await (await fetch(`${stack.appUrl}/api/live`, { headers: { 'if-none-match': etag } })).arrayBuffer();
  await (await fetch(`${stack.appUrl}/api/live?since=${etag.replace(/^W\/"|"$/g, '')}`)).arrayBuffer();
  const text = await scrape();
  const kept = text.split('\n').filter(KEEP);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const section = [
    SAMPLE_START,
    '',
    `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${commit}, from the app and the simulator started by the script (a 600/min key, after 300 upstream requests); Fleetmap's own families, the HTTP durations and the event-loop lag (the rest of prom-client's default metrics are left out here):`,
    '',
    '```',
    ...kept,
    '```',
    '',
    SAMPLE_END,
  ].join('\n');
  const page = readFileSync(PAGE, 'utf8');
  const i = page.indexOf(SAMPLE_START);
  const j = page.indexOf(SAMPLE_END);
  if (i < 0 || j < i) throw new Error(`docs/operations.md lacks the markers ${SAMPLE_START} … ${SAMPLE_END}`);
  writeFileSync(PAGE, page.slice(0, i) + section + page.slice(j + SAMPLE_END.length));
  console.log(`docs/operations.md: sample scrape of ${kept.length} lines written`);
} finally {
  await stack.stop();
}
