import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MemorySnapshotStore, type StoredSnapshot } from '@/lib/fleet';
import { startTestFeed, stopAll } from '@/lib/testing/feed';
import { applyCompactDelta, applyLiveDelta, decodeCompactFull, decodeRoster, LIVE_COMPACT_SHAPE, LIVE_ROSTER_SHAPE, liveChanges, type CompactAnswer, type CompactRoster, type LiveAnswer, type LiveSnapshot } from '@/lib/model';
import { makeHealth, makeSnapshot, makeVehicle } from '@/lib/testing/view-factories';
import { chooseEncoding, liveAnswer, type LiveSource, type RawAnswer } from './live-answer';

type Headers = { 'if-none-match'?: string; 'accept-encoding'?: string };
const get = (source: LiveSource, url: string, headers: Headers = {}, method = 'GET') => liveAnswer(source, { method, url, headers });
const json = (a: RawAnswer) => JSON.parse(a.body!.toString('utf8')) as LiveAnswer;

function withoutKind(a: LiveAnswer): LiveSnapshot {
  if (a.kind !== 'full') throw new Error(`expected a full answer, got ${a.kind}`);
  const { kind: _kind, ...snapshot } = a;
  return snapshot;
}

describe('GET /api/live deltas', () => {
  it.each([
    ['business', { buses: 40, onTrip: 30, limit: 600 }],
    ['standard (every trip unpositioned)', { buses: 40, onTrip: 30, limit: 600, level: 'standard' as const, scopes: ['buses:read', 'routes:read', 'stops:read', 'trips:read'] }],
  ])('with a %s key, a chain of deltas applied to the first full snapshot equals the full snapshot every time', async (_name, up) => {
    const { clock, upstream, feed } = startTestFeed(up);
    await clock.advance(30_000);
    let held = withoutKind(json(get(feed, '/api/live')));
    let deltas = 0;
    for (let i = 0; i < 40; i++) {
      // Polls 1 to 5 s apart; now and then a trip ends (its bus loses it, or it leaves the unpositioned list).
      await clock.advance(1_000 + ((i * 1_700) % 4_000));
      if (i % 7 === 3) upstream.finishedTrips.add(1 + i);
      const answer = json(get(feed, `/api/live?since=${held.epoch}-${held.version}`));
      expect(answer.kind).toBe('delta');
      if (answer.kind !== 'delta') return;
      deltas++;
      const next = applyLiveDelta(held, answer);
      expect(next).not.toBeNull();
      held = next!;
      const full = withoutKind(json(get(feed, '/api/live')));
      expect(held.version).toBe(full.version);
      expect(held).toEqual(full);
    }
    expect(deltas).toBe(40);
    // Trips did end along the way, so the chain carried removals, not only moves.
    const trips = new Set([...held.vehicles.flatMap((v) => (v.trip ? [v.trip.tripId] : [])), ...held.unpositionedTrips.map((t) => t.tripId)]);
    expect(trips.size).toBeLessThan(30);
    await stopAll(clock, feed);
  });
});

describe('GET /api/live?shape=compact', () => {
  const compact = (a: RawAnswer) => JSON.parse(a.body!.toString('utf8')) as CompactAnswer;
  /** A full answer decoded with the roster it names, asked of the same source as the browser asks it. */
  const decodeFull = (source: LiveSource, a: CompactAnswer) => {
    if (a.kind !== 'full') throw new Error(`expected a full answer, got ${a.kind}`);
    const roster = JSON.parse(get(source, `/api/live?shape=roster&roster=${a.roster}`).body!.toString('utf8')) as CompactRoster;
    return decodeCompactFull(a, decodeRoster(roster));
  };

  it('a chain of compact deltas applied to the first compact answer equals the compact full answer every time, most buses sent as moves', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 40, onTrip: 30, limit: 600 });
    await clock.advance(30_000);
    let held = decodeFull(feed, compact(get(feed, '/api/live?shape=compact')));
    let moved = 0;
    let whole = 0;
    for (let i = 0; i < 40; i++) {
      await clock.advance(1_000 + ((i * 1_700) % 4_000));
      if (i % 7 === 3) upstream.finishedTrips.add(1 + i);
      const answer = compact(get(feed, `/api/live?shape=compact&since=${held.epoch}-${held.version}`));
      expect(answer.kind).toBe('delta');
      if (answer.kind !== 'delta') return;
      moved += answer.m.id.length;
      whole += answer.v.id.length;
      const next = applyCompactDelta(held, answer);
      expect(next).not.toBeNull();
      held = next!;
      const full = decodeFull(feed, compact(get(feed, '/api/live?shape=compact')));
      expect(held).toEqual(full);
      // The same snapshot as the JSON form's, at the compact form's precision.
      const json = withoutKind(JSON.parse(get(feed, '/api/live').body!.toString('utf8')) as LiveAnswer);
      expect(held.vehicles.map((v) => [v.busId, v.trip?.tripId ?? null, v.plateNumber])).toEqual(json.vehicles.map((v) => [v.busId, v.trip?.tripId ?? null, v.plateNumber]));
      expect(held.vehicles.map((v) => v.lat)).toEqual(json.vehicles.map((v) => (v.lat === null ? null : Math.round(v.lat * 1e5) / 1e5)));
    }
    expect(moved).toBeGreaterThan(whole);
    await stopAll(clock, feed);
  });

  it('has an ETag of its own, 304 on it, compressed as the JSON form is, and refuses another shape', () => {
    const { source, write, epoch } = handSource(10);
    write(40.1);
    write(40.2);
    const full = get(source, '/api/live?shape=compact', { 'accept-encoding': 'gzip' });
    expect(full.headers).toMatchObject({ ETag: `W/"${epoch}-2.c"`, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
    expect(JSON.parse(gunzipSync(full.body!).toString())).toMatchObject({ kind: 'full', shape: LIVE_COMPACT_SHAPE, version: 2 });
    expect(get(source, '/api/live?shape=compact', { 'if-none-match': full.headers.ETag }).status).toBe(304);
    expect(get(source, '/api/live', { 'if-none-match': full.headers.ETag }).status).toBe(200);
    expect(get(source, '/api/live?shape=json').headers.ETag).toBe(`W/"${epoch}-2"`);
    expect(compact(get(source, `/api/live?shape=compact&since=${epoch}-1`))).toMatchObject({ kind: 'delta', since: 1, version: 2 });
    expect(get(source, '/api/live?shape=protobuf').status).toBe(400);
  });

  it('names a roster that keeps its version while only positions move, and changes it with a plate', () => {
    const { source, write, epoch } = handSource(10);
    write(40.1);
    const first = compact(get(source, '/api/live?shape=compact'));
    if (first.kind !== 'full') throw new Error('expected a full answer');
    const rosterAnswer = get(source, '/api/live?shape=roster', { 'accept-encoding': 'gzip' });
    const roster = JSON.parse(gunzipSync(rosterAnswer.body!).toString()) as CompactRoster;
    expect(roster).toMatchObject({ shape: LIVE_ROSTER_SHAPE, version: first.roster });
    expect(rosterAnswer.headers).toMatchObject({ ETag: `W/"r-${first.roster}"`, 'Content-Encoding': 'gzip' });
    expect(get(source, '/api/live?shape=roster', { 'if-none-match': rosterAnswer.headers.ETag }).status).toBe(304);
    expect(get(source, `/api/live?shape=roster&since=${epoch}-1`).status).toBe(400);
    // A move: a new version of the snapshot, the same roster.
    write(40.2);
    const moved = compact(get(source, '/api/live?shape=compact'));
    expect(moved).toMatchObject({ kind: 'full', version: 2, roster: first.roster });
    // A new plate: a new roster, named by the next full answer; the one before is still answered when asked by name.
    write(40.3, 'NEW-1');
    const renamed = compact(get(source, '/api/live?shape=compact'));
    if (renamed.kind !== 'full') throw new Error('expected a full answer');
    expect(renamed.roster).not.toBe(first.roster);
    expect(get(source, '/api/live?shape=roster', { 'if-none-match': rosterAnswer.headers.ETag }).status).toBe(200);
    expect(decodeFull(source, renamed).vehicles[0]!.plateNumber).toBe('NEW-1');
    const old = JSON.parse(get(source, `/api/live?shape=roster&roster=${first.roster}`).body!.toString()) as CompactRoster;
    expect(decodeCompactFull(first, decodeRoster(old)).vehicles[0]!.plateNumber).toBe('BX-1001');
    // A version never made gets the newest one.
    expect(JSON.parse(get(source, '/api/live?shape=roster&roster=nope').body!.toString())).toMatchObject({ version: renamed.roster });
  });
});

/** A source over a store written by hand: versions of a chosen epoch, a chosen window. */
function handSource(recent: number) {
  const store = new MemorySnapshotStore(recent);
  let current: StoredSnapshot | null = null;
  const source: LiveSource = {
    liveSnapshot: () => current!,
    liveChangesSince: (epoch, version) => store.changesSince(epoch, version),
    watch: () => true,
  };
  const write = (busLat: number, plateNumber?: string) => {
    const prev = current?.snapshot ?? null;
    const snapshot: LiveSnapshot = makeSnapshot({ epoch: store.epoch(), version: (prev?.version ?? 0) + 1, vehicles: [makeVehicle({ busId: 1, lat: busLat, ...(plateNumber && { plateNumber }) })] });
    current = { snapshot, body: JSON.stringify({ kind: 'full', ...snapshot }), changes: prev ? liveChanges(prev, snapshot) : null, health: makeHealth() };
    store.write(current);
    return snapshot;
  };
  return { source, write, epoch: store.epoch() };
}

describe('GET /api/live fallbacks, bytes and HTTP', () => {
  it('falls back to the full snapshot for another epoch or a version older than the store keeps, and says so', () => {
    const { source, write, epoch } = handSource(3);
    for (let i = 1; i <= 6; i++) write(40 + i / 100);
    expect(json(get(source, `/api/live?since=${epoch}-5`))).toMatchObject({ kind: 'delta', since: 5, version: 6 });
    expect(json(get(source, `/api/live?since=${epoch}-3`))).toMatchObject({ kind: 'delta', since: 3, version: 6 });
    expect(json(get(source, `/api/live?since=${epoch}-2`)).kind).toBe('full');
    expect(json(get(source, `/api/live?since=zz${epoch}-5`)).kind).toBe('full');
    // A version this epoch has not reached (another process's) is not a delta either.
    expect(json(get(source, `/api/live?since=${epoch}-7`)).kind).toBe('full');
    // Up to date: an empty delta.
    expect(json(get(source, `/api/live?since=${epoch}-6`))).toMatchObject({ kind: 'delta', vehicles: [], removedBusIds: [] });
  });

  it('refuses a since or watch it cannot read with a 400 naming the parameter', () => {
    const { source, write } = handSource(3);
    write(40);
    for (const bad of ['abc', '5', 'e-0', '']) {
      const a = get(source, `/api/live?since=${encodeURIComponent(bad)}`);
      expect(a.status).toBe(400);
      expect(json(a as RawAnswer) as unknown).toEqual({ error: { status: 400, message: expect.stringMatching(/^since must be/) } });
    }
    expect(get(source, '/api/live?watch=0').status).toBe(400);
  });

  it('sends each answer compressed once per version, br or gzip as accepted, with Vary, ETag and 304', () => {
    const { source, write, epoch } = handSource(10);
    write(40.1);
    const v2 = write(40.2);
    const plain = get(source, '/api/live');
    expect(plain.headers['Content-Encoding']).toBeUndefined();
    const gz = get(source, '/api/live', { 'accept-encoding': 'gzip, deflate' });
    const br = get(source, '/api/live', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(gz.headers['Content-Encoding']).toBe('gzip');
    expect(br.headers['Content-Encoding']).toBe('br');
    expect(gunzipSync(gz.body!).equals(plain.body!)).toBe(true);
    expect(brotliDecompressSync(br.body!).equals(plain.body!)).toBe(true);
    for (const a of [plain, gz, br]) {
      expect(a.headers).toMatchObject({ Vary: 'Accept-Encoding', ETag: `W/"${epoch}-2"`, 'Cache-Control': 'no-cache', 'Content-Type': 'application/json' });
      expect(Number(a.headers['Content-Length'])).toBe(a.body!.length);
    }
    // The same bytes, not compressed again.
    expect(get(source, '/api/live', { 'accept-encoding': 'br' }).body).toBe(br.body);
    const d1 = get(source, `/api/live?since=${epoch}-1`, { 'accept-encoding': 'gzip' });
    expect(get(source, `/api/live?since=${epoch}-1`, { 'accept-encoding': 'gzip' }).body).toBe(d1.body);
    expect(JSON.parse(gunzipSync(d1.body!).toString())).toMatchObject({ kind: 'delta', since: 1, version: v2.version });
    // The same answer object for the same question (scripts/server/server.mjs adds its headers once per object), frozen.
    const again1 = get(source, `/api/live?since=${epoch}-1`, { 'accept-encoding': 'gzip' });
    expect(again1).toBe(d1);
    expect(Object.isFrozen(d1.headers)).toBe(true);
    // A since that gets the full snapshot gets the full answer's very bytes, not a second compression of them.
    const { source: s2, write: w2, epoch: e2 } = handSource(2);
    for (let i = 1; i <= 5; i++) w2(41 + i / 100);
    const fullGz = get(s2, '/api/live', { 'accept-encoding': 'gzip' });
    for (const stale of [`${e2}-1`, `${e2}-2`, `x${e2}-4`]) expect(get(s2, `/api/live?since=${stale}`, { 'accept-encoding': 'gzip' }).body).toBe(fullGz.body);
    // While nothing changes the ETag holds, and naming it gets a bodiless 304.
    const again = get(source, '/api/live', { 'if-none-match': `W/"${epoch}-2"` });
    expect(again).toMatchObject({ status: 304, body: null, headers: { ETag: `W/"${epoch}-2"` } });
    write(40.3);
    expect(get(source, '/api/live', { 'if-none-match': `W/"${epoch}-2"` }).status).toBe(200);
  });

  it('answers HEAD without a body, OPTIONS with what is allowed, and other methods 405', () => {
    const { source, write } = handSource(3);
    write(40);
    const head = get(source, '/api/live', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(Number(head.headers['Content-Length'])).toBeGreaterThan(0);
    expect(get(source, '/api/live', {}, 'OPTIONS')).toMatchObject({ status: 204, headers: { Allow: 'GET, HEAD, OPTIONS' } });
    for (const m of ['POST', 'PUT', 'DELETE', 'PATCH']) expect(get(source, '/api/live', {}, m)).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD, OPTIONS' } });
  });

  it('picks the encoding by the q-values of Accept-Encoding', () => {
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('gzip, br;q=0')).toBe('gzip');
    expect(chooseEncoding('br;q=0.5, gzip')).toBe('br');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity, *;q=0')).toBe('identity');
  });
});

describe('GET /api/live: the health a viewer may know', () => {
  // What the full health holds that no viewer may read: the plan's name and scopes, the budget by kind, the
  // upstream's own error text, the notes of rooms beside the feed, and how the time zone was decided.
  const SECRET_FIELDS = ['"scopes"', '"plan"', '"byKind"', '"lastError"', '"notes"', '"source"', '"capabilities"', '"usedLastMinute"'];
  const LIVE_HEALTH_KEYS = ['budget', 'lastSuccessAt', 'level', 'locations', 'meanFixAgeS', 'message', 'state', 'timezone'];

  it('full answers and deltas carry the reduced health; only an administrator’s carry the full one, under its own ETag', async () => {
    const { clock, feed } = startTestFeed({ buses: 20, onTrip: 10, limit: 120 });
    feed.addHealthNote(() => 'history: not recording since 08:12 (password authentication failed for user "fleet")');
    await clock.advance(30_000);
    const first = feed.liveSnapshot();
    await clock.advance(30_000);
    const now = feed.liveSnapshot();
    await stopAll(clock, feed);
    expect(now.snapshot.version).toBeGreaterThan(first.snapshot.version);
    expect(now.health.scopes.length).toBeGreaterThan(0);

    const source: LiveSource = { liveSnapshot: () => now, liveChangesSince: (e, v) => feed.liveChangesSince(e, v), watch: () => true };
    const since = `/api/live?since=${first.snapshot.epoch}-${first.snapshot.version}`;
    const viewerFull = get(source, '/api/live');
    const viewerDelta = get(source, since);
    for (const a of [viewerFull, viewerDelta]) {
      const text = a.body!.toString('utf8');
      for (const field of SECRET_FIELDS) expect(text).not.toContain(field);
      expect(text).not.toContain('password authentication');
      const body = json(a);
      expect(Object.keys(body.health).sort()).toEqual(LIVE_HEALTH_KEYS);
      expect(body.health.budget).toEqual({ usedShare: expect.any(Number), pausedUntil: null });
      expect(body.fullHealth).toBeUndefined();
    }
    expect(json(viewerDelta).kind).toBe('delta');

    const admin = (url: string) => liveAnswer(source, { method: 'GET', url, headers: {}, fullHealth: true });
    const adminFull = admin('/api/live');
    const adminDelta = admin(since);
    expect(json(adminFull).fullHealth).toEqual(now.health);
    expect(json(adminDelta)).toMatchObject({ kind: 'delta', fullHealth: now.health });
    expect(json(adminFull).fullHealth!.notes).toEqual(['history: not recording since 08:12 (password authentication failed for user "fleet")']);
    // Everyone's part of the administrator's answer is everyone's answer.
    const { fullHealth: _full, ...rest } = json(adminFull);
    expect(rest).toEqual(json(viewerFull));
    expect(adminFull.headers.ETag).not.toBe(viewerFull.headers.ETag);
    expect(get(source, '/api/live', { 'if-none-match': adminFull.headers.ETag }).status).toBe(200);
  });
});
