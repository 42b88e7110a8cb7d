import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ROUTE_ACCESS, SERVER_ROUTES } from '@/lib/auth/access';
import { answerChecker } from '@/lib/testing/openapi';
import { makeSnapshot, makeUnpositionedTrip, makeVehicle } from '@/lib/testing/view-factories';
import { encodeCompactDelta, encodeCompactFull, encodeRoster, liveChanges } from '@/lib/model';
import { openApiDocument, openApiPath } from './document';

const ROOT = join(__dirname, '..', '..');
const APP = join(ROOT, 'app');

/** Every route file under app/ (app/api and the GTFS-Realtime feeds), as its route (`/api/trips/[id]`) and the methods it exports. */
function routeFiles(dir = APP): { route: string; methods: string[] }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return routeFiles(path);
    if (name !== 'route.ts') return [];
    const source = readFileSync(path, 'utf8');
    const methods = [...source.matchAll(/export (?:async )?(?:function|const) (GET|POST|PUT|PATCH|DELETE|HEAD)\b/g)].map((m) => m[1]!.toLowerCase());
    return [{ route: `/${relative(APP, dir).split(sep).join('/')}`, methods }];
  });
}

type Doc = { paths: Record<string, Record<string, { security: unknown[]; 'x-fleetmap-role': string }>> };

describe('the OpenAPI document', () => {
  const doc = openApiDocument() as unknown as Doc;

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every route file under app/, each method it exports, and the routes the server answers itself', () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(25);
    const missing = files.flatMap(({ route, methods }) => methods.filter((m) => m !== 'head' && !doc.paths[openApiPath(route)]?.[m]).map((m) => `${m.toUpperCase()} ${route}`));
    expect(missing, 'add an entry to OPERATIONS in lib/openapi/document.ts').toEqual([]);
    for (const route of SERVER_ROUTES) expect(doc.paths[openApiPath(route)]?.get, route).toBeDefined();
  });

  it('gives each operation the security of its ROUTE_ACCESS entry', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      const route = Object.keys(ROUTE_ACCESS).find((r) => openApiPath(r) === path) as keyof typeof ROUTE_ACCESS;
      const access = ROUTE_ACCESS[route] as { role: string; wall?: boolean; feed?: boolean };
      for (const op of Object.values(ops)) {
        expect(op['x-fleetmap-role'], path).toBe(access.role);
        expect(op.security, path).toEqual(access.role === 'public' ? [] : [{ sessionCookie: [] }, ...(access.wall ? [{ wallToken: [] }] : []), ...(access.feed ? [{ feedToken: [] }, { feedTokenQuery: [] }] : [])]);
      }
    }
  });

  it('accepts answers of the model and refuses what breaks it', () => {
    const check = answerChecker(doc);
    const full = { kind: 'full', ...makeSnapshot({ vehicles: [makeVehicle(), makeVehicle({ busId: 2, lat: null, lon: null, trip: null })], unpositionedTrips: [makeUnpositionedTrip()] }) };
    expect(check('/api/live', 'get', 200, full)).toEqual([]);
    expect(check('/api/live', 'get', 200, { ...full, vehicles: [{ ...makeVehicle(), gpsAt: 'yesterday' }] }).length).toBeGreaterThan(0);
    expect(check('/api/live', 'get', 200, { ...full, health: { ...full.health, state: 'fine' } }).length).toBeGreaterThan(0);
    // The compact form (?shape=compact), full and delta.
    const { kind: _kind, ...snapshot } = full;
    const compact = JSON.parse(JSON.stringify(encodeCompactFull(snapshot, 'r1')));
    expect(check('/api/live', 'get', 200, compact)).toEqual([]);
    // ... and its roster (?shape=roster).
    expect(check('/api/live', 'get', 200, JSON.parse(JSON.stringify(encodeRoster(snapshot.vehicles, 'r1'))))).toEqual([]);
    expect(check('/api/live', 'get', 200, { ...JSON.parse(JSON.stringify(encodeRoster(snapshot.vehicles, 'r1'))), id: ['one'] }).length).toBeGreaterThan(0);
    expect(check('/api/live', 'get', 200, JSON.parse(JSON.stringify(encodeCompactDelta({ ...snapshot, version: 2 }, 1, liveChanges({ vehicles: [], unpositionedTrips: [] }, snapshot), (id) => id === 2))))).toEqual([]);
    expect(check('/api/live', 'get', 200, { ...compact, v: { ...compact.v, lat: ['north'] } }).length).toBeGreaterThan(0);
    expect(check('/api/trips/{id}', 'get', 404, { error: { status: 404, message: 'Trip 9 was not found upstream.' } })).toEqual([]);
    // The services' answers are spelled out too: a field of the wrong kind or a missing one is refused.
    expect(check('/api/exceptions', 'get', 200, { generatedAt: 1, canAct: true, exceptions: [], countsByRule: { late: 2 } })).toEqual([]);
    expect(check('/api/exceptions', 'get', 200, { generatedAt: 1, canAct: true, exceptions: [], countsByRule: { late: 'two' } }).length).toBeGreaterThan(0);
    expect(check('/api/headways', 'get', 200, { at: 1, epoch: 'e', version: 1, config: { ghostAfterS: 300, bunchedRatio: 0.5, gappedRatio: 1.5 }, routes: [], unknownRoutes: [] })).toEqual([]);
    expect(check('/api/headways', 'get', 200, { routes: [] }).length).toBeGreaterThan(0);
    expect(check('/api/stops/{id}/arrivals', 'get', 200, { place: { name: 'A', lat: 1, lon: 2, stopIds: [1], routes: [] }, arrivals: [{ tripId: 1 }], at: 1, pendingRoutes: 0 }).length).toBeGreaterThan(0);
    expect(check('/api/trips/{id}', 'get', 418, {})).toEqual(['GET /api/trips/{id} has no answer 418 in the document']);
  });
});
