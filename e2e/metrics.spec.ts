// /metrics of the running app, read with a real Prometheus text-format parser: the upstream request counter moves
// with the simulator's own count of the requests it received (/__admin/stats), within 1 %; every request is timed
// under its route template (/api/live, which scripts/server/server.mjs answers itself, included), never its raw path; the
// labels name no bus, trip or token; a caller through a proxy is refused when METRICS_TOKEN is unset.
import { ROUTE_ACCESS } from '@/lib/auth/access';
import { parseScrape, samplesOf, valueOf, type Family } from '@/lib/testing/prometheus';
import { expect, test } from './support/fixtures';

// A stack of its own: the simulator's count must be this app's requests alone. A 1,200/min key makes the few
// hundred requests the comparison needs within a minute or so.
test.use({ stackOptions: { ownStack: 'metrics', rateLimit: 1200 } });

const REQUESTS_TO_COMPARE = 500;
const TEMPLATES = new Set<string>([...Object.keys(ROUTE_ACCESS), '/metrics', '/_next/*', '/public/*', 'unmatched']);

async function scrape(appUrl: string): Promise<Map<string, Family>> {
  const res = await fetch(`${appUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return parseScrape(await res.text());
}

test('the upstream counter follows the simulator within 1 %, every request is timed by route template', async ({ stack }) => {
  test.setTimeout(300_000);
  // Traffic of every kind /api/live answers, and a route with an id in its path.
  // The second and third answers depend on whether a new version came between (200 or 304): count what came.
  const full = await fetch(`${stack.appUrl}/api/live`);
  expect(full.status).toBe(200);
  const etag = full.headers.get('etag')!;
  const conditional = await fetch(`${stack.appUrl}/api/live`, { headers: { 'if-none-match': etag } });
  expect([200, 304]).toContain(conditional.status);
  const { epoch, version } = (await full.json()) as { epoch: string; version: number };
  const delta = await fetch(`${stack.appUrl}/api/live?since=${epoch}-${version}`);
  expect([200, 304]).toContain(delta.status);
  const liveStatuses = [full.status, conditional.status, delta.status];
  const seen = (status: number) => liveStatuses.filter((s) => s === status).length;
  expect((await fetch(`${stack.appUrl}/api/trips/987654`)).status).toBeGreaterThanOrEqual(400);

  // Wait on the app's own counter (a loaded machine polls more slowly; the deadline only stops a hung feed).
  await expect
    .poll(async () => valueOf(await scrape(stack.appUrl), 'fleetmap_upstream_requests_total'), { timeout: 240_000, intervals: [2_000] })
    .toBeGreaterThanOrEqual(REQUESTS_TO_COMPARE);
  // Requests in flight between the two reads are counted by one side only: read the app, the simulator, the app.
  const before = valueOf(await scrape(stack.appUrl), 'fleetmap_upstream_requests_total');
  const sim = await stack.simStats();
  const after = await scrape(stack.appUrl);
  const app = valueOf(after, 'fleetmap_upstream_requests_total');
  const nearest = Math.abs(sim.total - before) < Math.abs(sim.total - app) ? before : app;
  expect(Math.abs(nearest - sim.total) / sim.total, `app ${before}…${app}, simulator ${sim.total}`).toBeLessThanOrEqual(0.01);
  expect(valueOf(after, 'fleetmap_upstream_rate_limited_total')).toBe(sim.rateLimited as number);
  expect(samplesOf(after, 'fleetmap_upstream_request_duration_seconds', { operation: 'busLocation' })[0]?.count).toBeGreaterThan(0);
  expect(valueOf(after, 'fleetmap_upstream_state', { state: 'ok' }) + valueOf(after, 'fleetmap_upstream_state', { state: 'degraded' })).toBe(1);
  expect(valueOf(after, 'fleetmap_buses', { state: 'located' })).toBeGreaterThan(0);
  expect(samplesOf(after, 'fleetmap_location_age_seconds')[0]?.count).toBeGreaterThan(0);
  expect(valueOf(after, 'fleetmap_live_answers_total', { kind: 'full' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(after, 'fleetmap_viewers')).toBeGreaterThanOrEqual(1);
  expect(valueOf(after, 'fleetmap_cluster_leader')).toBe(1);
  expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);

  // Every request, /api/live too, under its template; the trip's id nowhere.
  const durations = samplesOf(after, 'http_server_request_duration_seconds');
  for (const status of new Set(liveStatuses)) {
    expect(samplesOf(after, 'http_server_request_duration_seconds', { route: '/api/live', method: 'GET', status: String(status) })[0]?.count).toBeGreaterThanOrEqual(seen(status));
  }
  expect(samplesOf(after, 'http_server_request_duration_seconds', { route: '/api/trips/[id]' }).length).toBe(1);
  expect(samplesOf(after, 'http_server_request_duration_seconds', { route: '/metrics' }).length).toBeGreaterThan(0);
  for (const s of durations) expect(TEMPLATES.has(s.labels.route!), `route label ${s.labels.route}`).toBe(true);
  const labelValues = [...after.values()].flatMap((f) => f.samples.flatMap((s) => Object.values(s.labels)));
  expect(labelValues.some((v) => v.includes('987654')), 'an id in a label').toBe(false);
  expect(labelValues.some((v) => v.includes(stack.apiKey)), 'the key in a label').toBe(false);
});

test('without METRICS_TOKEN a request through a proxy is refused, and the answer has no data', async ({ stack }) => {
  const res = await fetch(`${stack.appUrl}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
  expect(res.status).toBe(403);
  expect(await res.text()).not.toContain('fleetmap_');
});
