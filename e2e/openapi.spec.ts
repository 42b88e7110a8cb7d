// /api/openapi.json of the running app: a valid OpenAPI 3.1 document, and the real answers of the running app, route
// by route, match the schema it gives for their status (lib/testing/openapi.ts, ajv 8).
import { Validator } from '@seriousme/openapi-schema-validator';
import type { LiveFull } from '@/lib/model';
import { answerChecker } from '@/lib/testing/openapi';
import { expect, test } from './support/fixtures';

test('the running app answers as its OpenAPI document says', async ({ stack }) => {
  test.setTimeout(180_000);
  const res = await fetch(`${stack.appUrl}/api/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as object;
  const lint = await new Validator().validate(doc as never);
  expect(lint.errors ?? []).toEqual([]);
  const check = answerChecker(doc);

  // A snapshot with buses on trips, so that every id below is a real one.
  let live: LiveFull | null = null;
  await expect
    .poll(async () => {
      live = (await (await fetch(`${stack.appUrl}/api/live`)).json()) as LiveFull;
      return live.vehicles.filter((v) => v.trip && v.lat !== null).length;
    }, { timeout: 120_000 })
    .toBeGreaterThan(0);
  const onTrip = live!.vehicles.find((v) => v.trip && v.lat !== null)!;
  const etag = `${live!.epoch}-${live!.version}`;
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const today = iso(now).slice(0, 10);

  const asked: [string, string][] = [
    ['/api/live', '/api/live'],
    ['/api/live', `/api/live?since=${etag}`],
    ['/api/live', '/api/live?since=nonsense'],
    ['/api/live', '/api/live?shape=compact'],
    ['/api/live', `/api/live?shape=compact&since=${etag}`],
    ['/api/live', '/api/live?shape=roster'],
    ['/api/live', `/api/live?shape=roster&since=${etag}`],
    ['/api/live', '/api/live?shape=binary'],
    ['/api/network', '/api/network'],
    ['/api/routes', '/api/routes'],
    ['/api/routes/{id}/stops', `/api/routes/${onTrip.trip!.routeId}/stops`],
    ['/api/buses', '/api/buses'],
    ['/api/buses/last-trips', '/api/buses/last-trips'],
    ['/api/trips/{id}', `/api/trips/${onTrip.trip!.tripId}`],
    ['/api/trips/{id}', '/api/trips/abc'],
    ['/api/trips/{id}/predictions', `/api/trips/${onTrip.trip!.tripId}/predictions`],
    ['/api/headways', '/api/headways'],
    ['/api/exceptions', '/api/exceptions'],
    ['/api/exceptions', `/api/exceptions?from=${now - 3_600_000}&to=${now}`],
    ['/api/exceptions/deliveries', '/api/exceptions/deliveries'],
    ['/api/history/routes', `/api/history/routes?from=${today}&to=${today}`],
    ['/api/history/routes', '/api/history/routes?from=2026-02-30&to=2026-03-01'],
    ['/api/history/fleet', `/api/history/fleet?at=${iso(now)}`],
    ['/api/history/buses/{id}/track', `/api/history/buses/${onTrip.busId}/track?from=${iso(now - 3_600_000)}&to=${iso(now)}`],
    ['/api/history/trips/{id}', `/api/history/trips/${onTrip.trip!.tripId}`],
    ['/api/status', '/api/status'],
    ['/api/integration', '/api/integration'],
    ['/api/health/live', '/api/health/live'],
    ['/api/health/ready', '/api/health/ready'],
    ['/api/admin/users', '/api/admin/users'],
    ['/api/admin/tokens', '/api/admin/tokens'],
    ['/api/admin/audit', '/api/admin/audit'],
  ];
  const problems: string[] = [];
  for (const [path, url] of asked) {
    const answer = await fetch(`${stack.appUrl}${url}`);
    const text = await answer.text();
    const body = answer.headers.get('content-type')?.includes('application/json') && text ? (JSON.parse(text) as unknown) : undefined;
    problems.push(...check(path, 'get', answer.status, body).map((p) => `${url}: ${p}`));
  }
  const stops = (await (await fetch(`${stack.appUrl}/api/routes/${onTrip.trip!.routeId}/stops`)).json()) as { stops: { id: number }[] };
  if (stops.stops[0]) {
    const arrivals = await fetch(`${stack.appUrl}/api/stops/${stops.stops[0].id}/arrivals`);
    problems.push(...check('/api/stops/{id}/arrivals', 'get', arrivals.status, await arrivals.json()));
  }
  expect(problems).toEqual([]);
});
