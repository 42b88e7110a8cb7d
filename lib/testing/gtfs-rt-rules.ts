// The MobilityData gtfs-realtime-validator rules that apply to Fleetmap's feeds, by their numbers in its RULES.md
// (there is no JavaScript port of the validator). Each takes a feed decoded to a plain object (the bindings'
// toObject with longs as numbers, or protobufjs's from the official .proto) and returns what breaks it.
import { distanceM } from '@/lib/geo/sphere';

/** A decoded feed as toObject gives it (camelCase, 64-bit integers as numbers). */
export interface DecodedFeed {
  header?: { gtfsRealtimeVersion?: string; incrementality?: string | number; timestamp?: number };
  entity?: Array<{
    id?: string;
    vehicle?: {
      trip?: { tripId?: string };
      vehicle?: { id?: string };
      position?: { latitude?: number; longitude?: number; bearing?: number; speed?: number };
      timestamp?: number;
    };
    tripUpdate?: {
      trip?: { tripId?: string };
      vehicle?: { id?: string };
      timestamp?: number;
      stopTimeUpdate?: Array<{ stopSequence?: number; arrival?: { time?: number }; departure?: { time?: number } }>;
    };
  }>;
}

export interface Violation {
  rule: string;
  entity: string | null;
  message: string;
}

export interface RuleContext {
  /** The consumer's clock (ms) when it read the feed. */
  now: number;
  /** The network's stops' bounding box (E028 adds 1,609 m around it). */
  bounds?: { minLat: number; maxLat: number; minLon: number; maxLon: number };
}

// E001: POSIX seconds, not milliseconds, not before 2012 (the validator's lower bound) or absurdly far ahead.
const MIN_POSIX_S = Date.UTC(2012, 0, 1) / 1000;
const MAX_POSIX_S = Date.UTC(2100, 0, 1) / 1000;
const E028_MARGIN_M = 1_609;
const W004_MAX_MPS = 26;
const E050_FUTURE_S = 60;

export function validateFeed(feed: DecodedFeed, ctx: RuleContext): Violation[] {
  const out: Violation[] = [];
  const v = (rule: string, entity: string | null, message: string) => out.push({ rule, entity, message });
  const header = feed.header ?? {};
  const headerTs = header.timestamp;
  const nowS = ctx.now / 1000;
  const timestamps: Array<{ entity: string | null; what: string; t: number | undefined }> = [{ entity: null, what: 'header.timestamp', t: headerTs }];

  // E048, E049: version 2.0 needs a header timestamp and incrementality.
  if (header.gtfsRealtimeVersion === '2.0') {
    if (headerTs === undefined || headerTs === 0) v('E048', null, 'header timestamp not populated');
    if (header.incrementality === undefined) v('E049', null, 'header incrementality not populated');
  }
  if (headerTs === undefined) v('W001', null, 'header timestamp not populated');

  const vehicleIds = new Map<string, string>();
  for (const e of feed.entity ?? []) {
    const id = e.id ?? null;
    if (e.vehicle) {
      const vp = e.vehicle;
      if (vp.timestamp === undefined) v('W001', id, 'vehicle position timestamp not populated');
      timestamps.push({ entity: id, what: 'vehicle.timestamp', t: vp.timestamp });
      const vid = vp.vehicle?.id;
      if (!vid) v('W002', id, 'vehicle.id not populated');
      else if (vehicleIds.has(vid)) v('E052', id, `vehicle.id ${vid} also in entity ${vehicleIds.get(vid)}`);
      else vehicleIds.set(vid, id ?? '');
      const p = vp.position;
      if (p) {
        const { latitude: lat, longitude: lon, bearing, speed } = p;
        if (lat === undefined || lon === undefined || !(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) v('E026', id, `invalid position ${lat},${lon}`);
        else if (ctx.bounds && outside(ctx.bounds, lat, lon)) v('E028', id, `position ${lat},${lon} outside the network's bounds plus ${E028_MARGIN_M} m`);
        if (bearing !== undefined && !(bearing >= 0 && bearing < 360)) v('E027', id, `invalid bearing ${bearing}`);
        if (speed !== undefined && speed > W004_MAX_MPS) v('W004', id, `unrealistic speed ${speed} m/s`);
      }
    }
    if (e.tripUpdate) {
      const tu = e.tripUpdate;
      if (tu.timestamp === undefined) v('W001', id, 'trip update timestamp not populated');
      timestamps.push({ entity: id, what: 'trip_update.timestamp', t: tu.timestamp });
      if (!tu.vehicle?.id) v('W002', id, 'trip update vehicle.id not populated');
      let prev = -Infinity;
      for (const u of tu.stopTimeUpdate ?? []) {
        for (const [what, t] of [
          ['arrival', u.arrival?.time],
          ['departure', u.departure?.time],
        ] as const) {
          if (t === undefined) continue;
          if (!isPosixSeconds(t)) v('E001', id, `stop_time_update ${what}.time ${t} is not POSIX seconds`);
          // E022: times along the trip increase (each event later than the one before it).
          if (t <= prev) v('E022', id, `stop_sequence ${u.stopSequence} ${what} ${t} not after the previous time ${prev}`);
          prev = t;
        }
      }
    }
  }
  for (const { entity, what, t } of timestamps) {
    if (t === undefined) continue;
    if (!isPosixSeconds(t)) v('E001', entity, `${what} ${t} is not POSIX seconds`);
    // E012: the header is the newest time of the feed.
    if (entity !== null && headerTs !== undefined && t > headerTs) v('E012', entity, `${what} ${t} is after header.timestamp ${headerTs}`);
    // E050: nothing more than a minute in the future.
    if (t > nowS + E050_FUTURE_S) v('E050', entity, `${what} ${t} is ${Math.round(t - nowS)} s in the future`);
  }
  return out;
}

/** E017 and E018 over two feeds read one after the other. */
export function validateSequence(previous: DecodedFeed, next: DecodedFeed): Violation[] {
  const out: Violation[] = [];
  const a = previous.header?.timestamp;
  const b = next.header?.timestamp;
  if (a === undefined || b === undefined) return out;
  if (b < a) out.push({ rule: 'E018', entity: null, message: `header timestamp went back from ${a} to ${b}` });
  if (a === b && JSON.stringify(previous.entity ?? []) !== JSON.stringify(next.entity ?? [])) out.push({ rule: 'E017', entity: null, message: `content changed with the same header timestamp ${a}` });
  return out;
}

function isPosixSeconds(t: number): boolean {
  return Number.isInteger(t) && t >= MIN_POSIX_S && t < MAX_POSIX_S;
}

function outside(b: NonNullable<RuleContext['bounds']>, lat: number, lon: number): boolean {
  const cLat = Math.min(b.maxLat, Math.max(b.minLat, lat));
  const cLon = Math.min(b.maxLon, Math.max(b.minLon, lon));
  return distanceM(lon, lat, cLon, cLat) > E028_MARGIN_M;
}

/** The bounding box of the network's stops (the validator takes the GTFS stops'). */
export function boundsOf(points: ReadonlyArray<{ lat: number; lon: number }>): NonNullable<RuleContext['bounds']> {
  return {
    minLat: Math.min(...points.map((p) => p.lat)),
    maxLat: Math.max(...points.map((p) => p.lat)),
    minLon: Math.min(...points.map((p) => p.lon)),
    maxLon: Math.max(...points.map((p) => p.lon)),
  };
}
