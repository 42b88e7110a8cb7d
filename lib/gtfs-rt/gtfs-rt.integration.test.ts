import { join } from 'node:path';
import protobuf from 'protobufjs';
import { gunzipSync } from 'node:zlib';
import { transit_realtime } from 'gtfs-realtime-bindings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getVehiclePositions } from '@/app/gtfs-rt/vehicle-positions/route';
import { GET as getTripUpdates } from '@/app/gtfs-rt/trip-updates/route';
import { startFeed, type Feed } from '@/lib/fleet';
import type { LiveSnapshot } from '@/lib/model';
import { startPredictions } from '@/lib/predictions';
import { createSimulator, DEMO_BUSINESS_KEY, zoneAtLocalHour, type Simulator } from '@/lib/sim';
import { boundsOf, validateFeed, validateSequence, type DecodedFeed, type RuleContext } from '@/lib/testing/gtfs-rt-rules';
import { publishTestContext } from '@/lib/testing/app-context';
import { until as untilShared } from '@/lib/testing/harness';
import type { GtfsRtHandler } from '@/lib/server/gtfs-rt-guard';
import { startGtfsRt } from './index';

// The feeds as a consumer takes them from the app on the simulator over HTTP (the route handlers over the application
// context's feed and services), checked by the validator's rules, decoded by a second consumer (protobufjs with the official
// gtfs-realtime.proto) field for field, and again under the simulator's drift and contract-break faults. The
// simulator runs in a zone where it is midday now, so that trips run whatever the real hour, and at real speed: a
// faster simulator's fixes run ahead of the app's clock, and the feed rightly leaves out a fix from its future.

const PROTO = protobuf.loadSync(join(__dirname, '..', 'testing', 'gtfs-realtime.proto')).lookupType('transit_realtime.FeedMessage');
const TO_OBJECT = { longs: Number, enums: String, defaults: false } as const;

type Kind = 'vehicle-positions' | 'trip-updates';
const HANDLERS = { 'vehicle-positions': getVehiclePositions, 'trip-updates': getTripUpdates };

let sim: Simulator;
/** The application context's feed, which the routes answer from. */
let appFeed: Feed;
let withdraw: () => Promise<void>;
/** What server.mjs answers the feeds with, before Next.js (lib/server/gtfs-rt-guard.ts). */
let served: GtfsRtHandler;

async function take(kind: Kind, query = '', headers: Record<string, string> = {}) {
  const res = await HANDLERS[kind](new Request(`http://app/gtfs-rt/${kind}${query}`, { headers }));
  return res;
}

/** One protobuf feed: its bytes decoded by the bindings and by the independent consumer. */
async function feedOf(kind: Kind) {
  const res = await take(kind);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/x-protobuf');
  const bytes = new Uint8Array(await res.arrayBuffer());
  const bindings = transit_realtime.FeedMessage.toObject(transit_realtime.FeedMessage.decode(bytes), TO_OBJECT) as DecodedFeed;
  const independent = PROTO.toObject(PROTO.decode(bytes), TO_OBJECT) as DecodedFeed;
  return { etag: res.headers.get('etag')!, bytes, bindings, independent };
}

// Deadlines only stop a hung test: a loaded machine may take several times an idle one's seconds.
/** The shared wait, with this suite's deadline (a new feed version may take long on a loaded machine). */
const until = <T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean) => untilShared(what, probe, ok, 120_000, 200);

/**
 * The validator's context: the whole network's stops, as the validator reads them from the static GTFS. (The app's own
 * network grows as it reads each route's stops after start; a bus on a route not read yet, such as one out to LaGuardia,
 * lay outside the bounds of the routes read so far.)
 */
function context(): RuleContext {
  const stops = sim.world.net.routes.flatMap((r) => r.directions.flatMap((d) => d.stops.map((s) => ({ lon: s.lon, lat: s.lat }))));
  return { now: Date.now(), bounds: boundsOf(stops) };
}

/**
 * Reads `count` successive versions of a feed, each with at least MIN_ENTITIES entities and one on a trip (the feed
 * locates the buses one by one after start, and reads the trips apart: on a loaded machine the first versions held one
 * to four buses, or none on a trip yet), and checks every rule on each and on each pair.
 */
const MIN_ENTITIES = 5;
async function checkFeeds(kind: Kind, count: number) {
  const feeds: DecodedFeed[] = [];
  let etag: string | null = null;
  while (feeds.length < count) {
    const f = await until(`a new ${kind} version`, () => feedOf(kind), (x) => x.etag !== etag && (x.bindings.entity?.length ?? 0) >= MIN_ENTITIES && (x.bindings.entity ?? []).some((e) => e.tripUpdate || e.vehicle?.trip));
    etag = f.etag;
    expect(f.independent).toEqual(f.bindings);
    expect(validateFeed(f.bindings, context())).toEqual([]);
    if (feeds.length > 0) expect(validateSequence(feeds[feeds.length - 1]!, f.bindings)).toEqual([]);
    feeds.push(f.bindings);
  }
  return feeds;
}

beforeAll(async () => {
  sim = createSimulator({ seed: 7, buses: 120, speed: 1, rateLimit: 3000, admin: true, timezone: zoneAtLocalHour(12) });
  const { baseUrl } = await sim.listen(0, '127.0.0.1');
  process.env.PARTNER_API_BASE_URL = baseUrl;
  process.env.PARTNER_API_KEY = DEMO_BUSINESS_KEY;
  process.env.FEED_TRIPS_INTERVAL_S = '5';
  appFeed = await startFeed();
  const predictions = startPredictions(appFeed);
  const gtfsRt = startGtfsRt(appFeed, predictions);
  ({ withdraw, gtfsRt: served } = publishTestContext(appFeed, { services: { predictions, gtfsRt } }));
  const stop = withdraw;
  withdraw = async () => {
    gtfsRt.close();
    predictions.close();
    await stop();
  };
});

afterAll(async () => {
  await withdraw();
  await sim.close();
  delete process.env.PARTNER_API_BASE_URL;
  delete process.env.PARTNER_API_KEY;
  delete process.env.FEED_TRIPS_INTERVAL_S;
});

describe('GTFS-Realtime from the app on the simulator', () => {
  it('publishes each bus at its last fix and its time, with its trip and next stop, and passes the rules', async () => {
    const [feed] = await checkFeeds('vehicle-positions', 4);
    const snap = appFeed.liveSnapshot().snapshot as LiveSnapshot;
    const byId = new Map(snap.vehicles.map((v) => [String(v.busId), v]));
    const entities = feed!.entity!;
    expect(entities.length).toBeGreaterThanOrEqual(MIN_ENTITIES);
    const withTrip = entities.filter((e) => e.vehicle?.trip);
    expect(withTrip.length).toBeGreaterThan(0);
    for (const e of entities) {
      const vp = e.vehicle!;
      const v = byId.get(vp.vehicle!.id!);
      if (!v || v.gpsAt === null) continue;
      // The fix itself (a float on the wire) and its GPS time: never an estimate.
      if (Math.floor(v.gpsAt / 1000) === vp.timestamp) {
        expect(vp.position!.latitude).toBe(Math.fround(v.lat!));
        expect(vp.position!.longitude).toBe(Math.fround(v.lon!));
      }
    }
    const full = withTrip[0]!.vehicle as NonNullable<DecodedFeed['entity']>[number]['vehicle'] & { trip: Record<string, unknown>; stopId?: string; currentStopSequence?: number };
    expect(full.trip).toEqual(expect.objectContaining({ tripId: expect.any(String), routeId: expect.any(String), directionId: expect.any(Number), startDate: expect.stringMatching(/^\d{8}$/), startTime: expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/) }));
  });

  it('publishes a stop_time_update per remaining stop, times strictly increasing, and passes the rules', async () => {
    const [feed] = await checkFeeds('trip-updates', 4);
    const entities = feed!.entity!;
    expect(entities.length).toBeGreaterThanOrEqual(MIN_ENTITIES);
    const tu = entities[0]!.tripUpdate as unknown as { trip: Record<string, unknown>; vehicle: Record<string, unknown>; stopTimeUpdate: Array<Record<string, unknown>> };
    expect(tu.trip).toEqual(expect.objectContaining({ tripId: expect.any(String), routeId: expect.any(String) }));
    expect(tu.stopTimeUpdate[0]).toEqual(expect.objectContaining({ stopSequence: expect.any(Number), stopId: expect.any(String), arrival: expect.objectContaining({ time: expect.any(Number), uncertainty: expect.any(Number) }) }));
  });

  it('answers one encoding per version: the same ETag gets 304, and ?format=json is the same feed', async () => {
    // Two reads within one snapshot version (kept at least a second): the second names the first's tag.
    const notModified = await until(
      'two reads of one version',
      async () => {
        const etag = (await take('trip-updates')).headers.get('etag')!;
        return { etag, again: await take('trip-updates', '', { 'if-none-match': etag }) };
      },
      (x) => x.again.status === 304,
    );
    expect(notModified.again.headers.get('etag')).toBe(notModified.etag);
    const pair = await until(
      'the protobuf and JSON copies of one version',
      async () => {
        const pb = await feedOf('vehicle-positions');
        const json = await take('vehicle-positions', '?format=json');
        return { pb, json, jsonTag: json.headers.get('etag')! };
      },
      (x) => x.jsonTag.replace('-json-', '-protobuf-') === x.pb.etag,
    );
    expect(pair.json.headers.get('content-type')).toContain('application/json');
    expect(await pair.json.json()).toEqual(pair.pb.bindings);
    expect((await take('vehicle-positions', '?format=xml')).status).toBe(400);
  });

  it('answers the same before Next.js (server.mjs): the same bytes and ETag, 304, ?format=json, HEAD and the 400', async () => {
    const ask = (kind: Kind, query = '', headers: Record<string, string> = {}, method = 'GET') => served({ method, url: `/gtfs-rt/${kind}${query}`, headers: { host: 'localhost', ...headers } });
    for (const kind of ['vehicle-positions', 'trip-updates'] as const) {
      const same = await until(
        `${kind}: the route's and the server's answers of one version`,
        async () => {
          const route = await take(kind);
          return { route, routeBytes: Buffer.from(await route.arrayBuffer()), raw: await ask(kind) };
        },
        (x) => x.raw.headers['ETag'] === x.route.headers.get('etag'),
      );
      expect(same.raw.status).toBe(200);
      expect(same.raw.headers['Content-Type']).toBe('application/x-protobuf');
      expect(same.raw.body!.equals(same.routeBytes)).toBe(true);
      expect(same.raw.headers['Content-Length']).toBe(String(same.routeBytes.length));
    }
    // Compressed once per version for a consumer that accepts gzip: the same bytes once unzipped, the same ETag.
    const zipped = await until(
      'one version, plain and gzipped',
      async () => ({ plain: await ask('trip-updates'), gz: await ask('trip-updates', '', { 'accept-encoding': 'gzip' }) }),
      (x) => x.plain.headers['ETag'] === x.gz.headers['ETag'],
    );
    expect(zipped.gz.headers['Content-Encoding']).toBe('gzip');
    expect(zipped.gz.headers['Vary']).toBe('Accept-Encoding');
    expect(zipped.gz.headers['Content-Length']).toBe(String(zipped.gz.body!.length));
    expect(gunzipSync(zipped.gz.body!).equals(zipped.plain.body!)).toBe(true);
    const first = await ask('trip-updates', '?format=json');
    expect(first.headers['Content-Type']).toContain('application/json');
    expect((JSON.parse(first.body!.toString()) as { header: { gtfsRealtimeVersion: string } }).header.gtfsRealtimeVersion).toBe('2.0');
    const again = await until('two reads of one version', async () => ask('trip-updates', '?format=json', { 'if-none-match': (await ask('trip-updates', '?format=json')).headers['ETag']! }), (x) => x.status === 304);
    expect(again.body).toBeNull();
    const head = await ask('vehicle-positions', '', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(Number(head.headers['Content-Length'])).toBeGreaterThan(0);
    const bad = await ask('vehicle-positions', '?format=xml');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body!.toString())).toEqual({ error: { status: 400, message: expect.stringContaining('format') } });
  });

  it('passes the rules under the drift and contract-break faults (broken records never published)', async () => {
    sim.setFaults({ drift: true, contractBreakRate: 0.2 });
    try {
      await checkFeeds('vehicle-positions', 4);
      await checkFeeds('trip-updates', 4);
    } finally {
      sim.resetFaults();
    }
  });
});
