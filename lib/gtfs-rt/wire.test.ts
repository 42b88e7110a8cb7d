import { transit_realtime } from 'gtfs-realtime-bindings';
import { describe, expect, it } from 'vitest';
import { encodeEntities, encodeEntitiesWithBindings } from './encode';
import { NotWireable, writeEntities, type WireEntity, type WireTrip, type WireVehicle } from './wire';

/** A small deterministic generator: the same cases every run. */
function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const NAMES = ['', 'M15', 'Bus 1001', 'Ñandú – Straße 5', '東京', 'x'.repeat(200), '🚌 depot'];

function randomEntities(seed: number, n: number): WireEntity[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const maybe = <T>(v: T): T | undefined => (r() < 0.5 ? v : undefined);
  const big = () => Math.floor(r() * 2 ** (1 + Math.floor(r() * 40)));
  const trip = (): WireTrip => {
    const t: WireTrip = { tripId: String(big()) };
    if (r() < 0.7) t.routeId = pick(NAMES);
    if (r() < 0.7) t.directionId = Math.floor(r() * 2);
    if (r() < 0.7) t.startDate = '20260304';
    if (r() < 0.7) t.startTime = '25:10:00';
    return t;
  };
  const vehicle = (): WireVehicle => {
    const v: WireVehicle = { id: String(big()) };
    if (r() < 0.7) v.label = pick(NAMES);
    if (r() < 0.7) v.licensePlate = pick(NAMES);
    return v;
  };
  const out: WireEntity[] = [];
  for (let i = 0; i < n; i++) {
    if (r() < 0.5) {
      const position = { latitude: 40 + r(), longitude: -74 + r(), ...(r() < 0.7 ? { bearing: r() * 360 } : {}), ...(r() < 0.7 ? { speed: r() * 26 } : {}) };
      out.push({
        id: `vehicle-${i}`,
        vehicle: {
          vehicle: vehicle(),
          position,
          timestamp: 1_700_000_000 + big(),
          ...(r() < 0.7 ? { trip: trip() } : {}),
          ...(r() < 0.6 ? { currentStopSequence: big() % 2 ** 32, stopId: pick(NAMES), currentStatus: 2 } : {}),
        },
      });
    } else {
      const stops = Math.floor(r() * 25);
      out.push({
        id: `trip-${i}`,
        tripUpdate: {
          trip: trip(),
          stopTimeUpdate: Array.from({ length: stops }, (_, k) => ({ stopSequence: k + Math.floor(r() * 3), stopId: pick(NAMES), arrival: { time: 1_700_000_000 + k * 60, uncertainty: maybe(Math.floor(r() * 600)) } })),
          timestamp: 1_700_000_000 + big(),
          ...(r() < 0.7 ? { vehicle: vehicle() } : {}),
          // Delays either side of zero: a negative int32 is ten bytes on the wire.
          ...(r() < 0.7 ? { delay: Math.floor((r() - 0.5) * 7200) } : {}),
        },
      });
    }
  }
  // Optional fields left out, not set to undefined, as the builders do.
  return JSON.parse(JSON.stringify(out)) as WireEntity[];
}

describe('writeEntities', () => {
  it('writes the very bytes gtfs-realtime-bindings writes, for every field the feeds set', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const entity = randomEntities(seed, 30);
      const mine = Buffer.from(writeEntities(entity));
      expect(mine.equals(Buffer.from(encodeEntitiesWithBindings({ entity }))), `seed ${seed}`).toBe(true);
    }
  });

  it('decodes with the bindings field for field', () => {
    const entity = randomEntities(7, 50);
    const header = { gtfsRealtimeVersion: '2.0', incrementality: 0, timestamp: 1_700_000_000 };
    const head = transit_realtime.FeedMessage.encode({ header, entity: [] }).finish();
    const decoded = transit_realtime.FeedMessage.decode(Buffer.concat([head, writeEntities(entity)]));
    const asObject = transit_realtime.FeedMessage.toObject(decoded, { longs: Number, defaults: false }) as { entity: unknown[] };
    const expected = transit_realtime.FeedMessage.toObject(transit_realtime.FeedMessage.decode(transit_realtime.FeedMessage.encode({ header, entity }).finish()), { longs: Number, defaults: false }) as { entity: unknown[] };
    expect(asObject.entity).toHaveLength(50);
    expect(asObject).toEqual(expected);
  });

  it('writes no entity as no bytes', () => {
    expect(writeEntities([])).toHaveLength(0);
  });

  it('refuses a value the bindings would write otherwise, and encodeEntities then uses the bindings', () => {
    const entity: WireEntity[] = [{ id: 'trip-1', tripUpdate: { trip: { tripId: '1' }, stopTimeUpdate: [{ stopSequence: 1.5, stopId: 'a', arrival: { time: 1_700_000_000 } }], timestamp: 1_700_000_000 } }];
    expect(() => writeEntities(entity)).toThrow(NotWireable);
    expect(Buffer.from(encodeEntities({ entity })).equals(Buffer.from(encodeEntitiesWithBindings({ entity })))).toBe(true);
    const negativeTime: WireEntity[] = [{ id: 'v', vehicle: { vehicle: { id: '1' }, position: { latitude: 1, longitude: 2 }, timestamp: -5 } }];
    expect(() => writeEntities(negativeTime)).toThrow(NotWireable);
    expect(Buffer.from(encodeEntities({ entity: negativeTime })).equals(Buffer.from(encodeEntitiesWithBindings({ entity: negativeTime })))).toBe(true);
  });
});
