import { describe, expect, it } from 'vitest';
import { MemorySnapshotStore, type StoredSnapshot } from '@/lib/fleet';
import { startTestFeed, stopAll } from '@/lib/testing/feed';
import { applyCompactDelta, applyLiveDelta, decodeCompactFull, decodeRoster, liveChanges, liveInRoutes, tripInRoutes, type CompactAnswer, type CompactRoster, type LiveAnswer, type LiveSnapshot, type Vehicle } from '@/lib/model';
import { makeHealth, makeSnapshot, makeTrip, makeVehicle } from '@/lib/testing/view-factories';
import { liveAnswer, type LiveSource, type RawAnswer } from './live-answer';
import { normaliseRoutes, scopeKey } from './live-scope';

type Headers = { 'if-none-match'?: string };
const get = (source: LiveSource, url: string, routes: readonly string[] | null, headers: Headers = {}) => liveAnswer(source, { method: 'GET', url, headers, routes });
const json = (a: RawAnswer) => JSON.parse(a.body!.toString('utf8')) as LiveAnswer;

function withoutKind(a: LiveAnswer): LiveSnapshot {
  if (a.kind !== 'full') throw new Error(`expected a full answer, got ${a.kind}`);
  const { kind: _kind, ...snapshot } = a;
  return snapshot;
}

/** Every route of every bus and trip an answer carries. */
function routesIn(a: LiveAnswer): Array<{ routeId: number | null; routeCode: string | null }> {
  return [...a.vehicles.map((v) => v.trip ?? { routeId: null, routeCode: null }), ...a.unpositionedTrips];
}

describe('GET /api/live for a viewer limited to routes', () => {
  it('carries only those routes, and a chain of its deltas equals its full view every time', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 40, onTrip: 30, limit: 600 });
    await clock.advance(30_000);
    const everything = withoutKind(json(get(feed, '/api/live', null)));
    const ids = [...new Set(everything.vehicles.flatMap((v) => (v.trip?.routeId != null ? [v.trip.routeId] : [])))].sort((a, b) => a - b);
    expect(ids.length).toBeGreaterThan(2);
    // Two of the network's routes, by id as a wall URL may name them.
    const routes = [String(ids[0]), ` ${ids[1]}`];
    let held = withoutKind(json(get(feed, '/api/live', routes)));
    expect(held.vehicles.length).toBeGreaterThan(0);
    expect(held.vehicles.length).toBeLessThan(everything.vehicles.length);
    let deltas = 0;
    for (let i = 0; i < 40; i++) {
      await clock.advance(1_000 + ((i * 1_700) % 4_000));
      if (i % 5 === 2) upstream.finishedTrips.add(1 + i);
      const answer = json(get(feed, `/api/live?since=${held.epoch}-${held.version}`, routes));
      expect(answer.kind).toBe('delta');
      if (answer.kind !== 'delta') return;
      deltas++;
      for (const r of routesIn(answer)) expect(tripInRoutes(r, routes)).toBe(true);
      held = applyLiveDelta(held, answer)!;
      expect(held).not.toBeNull();
      const full = json(get(feed, '/api/live', routes));
      for (const r of routesIn(full)) expect(tripInRoutes(r, routes)).toBe(true);
      expect(held).toEqual(withoutKind(full));
      // ... which is exactly everyone's snapshot of that version, limited to the routes.
      const all = withoutKind(json(get(feed, '/api/live', null)));
      expect(held).toEqual(liveInRoutes(all, routes));
    }
    expect(deltas).toBe(40);
    await stopAll(clock, feed);
  });

  it('in the compact form too: its own ETag, only those routes, and a chain of its deltas equals its full view', async () => {
    const { clock, feed } = startTestFeed({ buses: 40, onTrip: 30, limit: 600 });
    await clock.advance(30_000);
    const everything = withoutKind(json(get(feed, '/api/live', null)));
    const routes = [String(everything.vehicles.find((v) => v.trip?.routeId != null)!.trip!.routeId)];
    const compact = (url: string) => {
      const a = get(feed, url, routes);
      expect(a.headers.ETag).toMatch(new RegExp(`\\.${scopeKey(routes)}\\.c"$`));
      return JSON.parse(a.body!.toString('utf8')) as CompactAnswer;
    };
    const full = () => {
      const a = compact('/api/live?shape=compact');
      if (a.kind !== 'full') throw new Error('expected a full answer');
      const roster = JSON.parse(get(feed, `/api/live?shape=roster&roster=${a.roster}`, routes).body!.toString('utf8')) as CompactRoster;
      return decodeCompactFull(a, decodeRoster(roster));
    };
    let held = full();
    expect(held.vehicles.length).toBeLessThan(everything.vehicles.length);
    for (let i = 0; i < 10; i++) {
      await clock.advance(2_000 + ((i * 1_700) % 3_000));
      const d = compact(`/api/live?shape=compact&since=${held.epoch}-${held.version}`);
      expect(d.kind).toBe('delta');
      if (d.kind !== 'delta') return;
      held = applyCompactDelta(held, d)!;
      expect(held).toEqual(full());
      for (const v of held.vehicles) expect(tripInRoutes(v.trip ?? { routeId: null, routeCode: null }, routes)).toBe(true);
    }
    await stopAll(clock, feed);
  });

  it('removes a bus that leaves the routes, names no bus it never showed, and answers in full from a version it did not serve', () => {
    const store = new MemorySnapshotStore(10);
    let current: StoredSnapshot | null = null;
    const source: LiveSource = { liveSnapshot: () => current!, liveChangesSince: (e, v) => store.changesSince(e, v), watch: () => true };
    const write = (vehicles: Vehicle[]) => {
      const prev = current?.snapshot ?? null;
      const snapshot = makeSnapshot({ epoch: store.epoch(), version: (prev?.version ?? 0) + 1, vehicles });
      current = { snapshot, body: JSON.stringify({ kind: 'full', ...snapshot }), changes: prev ? liveChanges(prev, snapshot) : null, health: makeHealth() };
      store.write(current);
    };
    const onM15 = (busId: number, lat = 40.75) => makeVehicle({ busId, lat, trip: makeTrip({ tripId: busId, routeId: 10, routeCode: 'M15' }) });
    const onM7 = (busId: number, lat = 40.75) => makeVehicle({ busId, lat, trip: makeTrip({ tripId: busId, routeId: 7, routeCode: 'M7' }) });
    const epoch = store.epoch();
    const routes = ['M15'];

    write([onM15(1), onM7(2), makeVehicle({ busId: 3, trip: null })]);
    const first = json(get(source, '/api/live', routes));
    expect(first.vehicles.map((v) => v.busId)).toEqual([1]);
    // Bus 2 (on M7) moves and bus 3 is removed: neither was shown, so the delta names neither.
    write([onM15(1), onM7(2, 40.76)]);
    expect(json(get(source, `/api/live?since=${epoch}-1`, routes))).toMatchObject({ kind: 'delta', vehicles: [], removedBusIds: [] });
    // Bus 1 leaves M15 for M7: removed from the limited view; bus 2 comes onto M15: added.
    write([onM7(1), onM15(2)]);
    const d = json(get(source, `/api/live?since=${epoch}-2`, routes));
    expect(d).toMatchObject({ kind: 'delta', since: 2, version: 3, removedBusIds: [1] });
    expect(d.vehicles.map((v) => v.busId)).toEqual([2]);
    // The unlimited viewer's delta from the same version is another answer (both buses changed).
    expect(json(get(source, `/api/live?since=${epoch}-2`, null)).vehicles.map((v) => v.busId)).toEqual([1, 2]);
    // A version this scope was never served at (another scope's, or another instance's): the limited view in full.
    expect(json(get(source, `/api/live?since=${epoch}-2`, ['M7'])).kind).toBe('full');
  });

  it('gives a limited viewer the roster of its own buses only, even when it asks for everyone\'s by version', () => {
    const store = new MemorySnapshotStore(10);
    const snapshot = makeSnapshot({
      epoch: store.epoch(),
      version: 1,
      vehicles: [
        makeVehicle({ busId: 1, plateNumber: 'ON-M15', trip: makeTrip({ tripId: 1, routeId: 10, routeCode: 'M15' }) }),
        makeVehicle({ busId: 2, plateNumber: 'ON-M7', trip: makeTrip({ tripId: 2, routeId: 7, routeCode: 'M7' }) }),
        makeVehicle({ busId: 3, plateNumber: 'PARKED', trip: null }),
      ],
    });
    const stored: StoredSnapshot = { snapshot, body: JSON.stringify({ kind: 'full', ...snapshot }), changes: null, health: makeHealth() };
    store.write(stored);
    const source: LiveSource = { liveSnapshot: () => stored, liveChangesSince: (e, v) => store.changesSince(e, v), watch: () => true };
    const rosterOf = (routes: readonly string[] | null, version?: string) =>
      decodeRoster(JSON.parse(get(source, `/api/live?shape=roster${version ? `&roster=${version}` : ''}`, routes).body!.toString('utf8')) as CompactRoster);
    const everyone = rosterOf(null);
    expect(everyone.names.map((n) => n.plateNumber)).toEqual(['ON-M15', 'ON-M7', 'PARKED']);
    const limited = rosterOf(['M15']);
    expect(limited.busIds).toEqual([1]);
    expect(limited.version).not.toBe(everyone.version);
    // Everyone's version, asked by a wall token: its own roster, not everyone's.
    expect(rosterOf(['M15'], everyone.version)).toEqual(limited);
    // Its full answer names its own roster.
    const full = JSON.parse(get(source, '/api/live?shape=compact', ['M15']).body!.toString('utf8')) as CompactAnswer;
    expect(full).toMatchObject({ kind: 'full', roster: limited.version });
  });

  it('has its own ETag: a limited viewer never gets a 304 for the full ETag, nor the full one for its own', () => {
    const store = new MemorySnapshotStore(10);
    const snapshot = makeSnapshot({ epoch: store.epoch(), version: 1, vehicles: [makeVehicle({ busId: 1 })] });
    const stored: StoredSnapshot = { snapshot, body: JSON.stringify({ kind: 'full', ...snapshot }), changes: null, health: makeHealth() };
    store.write(stored);
    const source: LiveSource = { liveSnapshot: () => stored, liveChangesSince: (e, v) => store.changesSince(e, v), watch: () => true };
    const full = get(source, '/api/live', null);
    const limited = get(source, '/api/live', ['M15']);
    const other = get(source, '/api/live', ['M7']);
    expect(limited.headers.ETag).not.toBe(full.headers.ETag);
    expect(other.headers.ETag).not.toBe(limited.headers.ETag);
    expect(get(source, '/api/live', ['m15 '], { 'if-none-match': limited.headers.ETag! }).status).toBe(304);
    expect(get(source, '/api/live', ['M15'], { 'if-none-match': full.headers.ETag! }).status).toBe(200);
    expect(get(source, '/api/live', null, { 'if-none-match': limited.headers.ETag! }).status).toBe(200);
    expect(get(source, '/api/live', ['M7'], { 'if-none-match': limited.headers.ETag! }).status).toBe(200);
  });

  it('names a scope by its set of routes', () => {
    expect(normaliseRoutes([' M15', 'm101', 'M15', ''])).toEqual(['m101', 'm15']);
    expect(scopeKey(['M15', 'M101'])).toBe(scopeKey(['m101', 'm15']));
    expect(scopeKey(['M15'])).not.toBe(scopeKey(['M101']));
  });
});
