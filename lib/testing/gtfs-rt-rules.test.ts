import { describe, expect, it } from 'vitest';
import { validateFeed, validateSequence, type DecodedFeed } from './gtfs-rt-rules';

// Each rule fails on the feed it is about (so a green run on live feeds means something) and passes a good one.
const NOW = Date.parse('2026-03-04T17:00:00Z');
const T = NOW / 1000;
const BOUNDS = { minLat: 40.7, maxLat: 40.8, minLon: -74.0, maxLon: -73.9 };

function good(): DecodedFeed {
  return {
    header: { gtfsRealtimeVersion: '2.0', incrementality: 'FULL_DATASET', timestamp: T },
    entity: [
      { id: 'vehicle-1', vehicle: { vehicle: { id: '1' }, trip: { tripId: '9' }, position: { latitude: 40.75, longitude: -73.95, bearing: 90, speed: 8 }, timestamp: T - 20 } },
      { id: 'trip-9', tripUpdate: { trip: { tripId: '9' }, vehicle: { id: '1' }, timestamp: T, stopTimeUpdate: [{ stopSequence: 3, arrival: { time: T + 60 } }, { stopSequence: 4, arrival: { time: T + 120 } }] } },
    ],
  };
}

const rules = (f: DecodedFeed) => validateFeed(f, { now: NOW, bounds: BOUNDS }).map((v) => v.rule);

describe('the validator rules', () => {
  it('pass a good feed', () => {
    expect(rules(good())).toEqual([]);
    expect(validateSequence(good(), { ...good(), header: { ...good().header, timestamp: T + 1 } })).toEqual([]);
  });

  it('E001: times in milliseconds', () => {
    const f = good();
    f.entity![0]!.vehicle!.timestamp = (T - 20) * 1000;
    expect(rules(f)).toContain('E001');
  });

  it('E012: an entity newer than the header', () => {
    const f = good();
    f.entity![0]!.vehicle!.timestamp = T + 5;
    expect(rules(f)).toContain('E012');
  });

  it('E017 and E018: changed content under the same timestamp, a timestamp going back', () => {
    const changed = good();
    changed.entity![0]!.vehicle!.position!.latitude = 40.76;
    expect(validateSequence(good(), changed).map((v) => v.rule)).toEqual(['E017']);
    expect(validateSequence(good(), { ...good(), header: { ...good().header, timestamp: T - 1 } }).map((v) => v.rule)).toEqual(['E018']);
  });

  it('E022: stop times not increasing', () => {
    const f = good();
    f.entity![1]!.tripUpdate!.stopTimeUpdate![1]!.arrival!.time = T + 60;
    expect(rules(f)).toContain('E022');
  });

  it('E026, E027, E028: position, bearing, and the network bounds plus 1,609 m', () => {
    const f = good();
    f.entity![0]!.vehicle!.position = { latitude: 91, longitude: -73.95, bearing: 360 };
    expect(rules(f)).toEqual(expect.arrayContaining(['E026', 'E027']));
    const far = good();
    far.entity![0]!.vehicle!.position = { latitude: 40.83, longitude: -73.95 };
    expect(rules(far)).toContain('E028');
    const near = good();
    near.entity![0]!.vehicle!.position = { latitude: 40.81, longitude: -73.95 };
    expect(rules(near)).not.toContain('E028');
  });

  it('E048, E049, W001: header timestamp and incrementality missing', () => {
    const f = good();
    f.header = { gtfsRealtimeVersion: '2.0' };
    delete f.entity![0]!.vehicle!.timestamp;
    expect(rules(f)).toEqual(expect.arrayContaining(['E048', 'E049', 'W001']));
  });

  it('E050: a time more than a minute in the future', () => {
    const f = good();
    f.header!.timestamp = T + 120;
    expect(rules(f)).toContain('E050');
  });

  it('E052 and W002: a vehicle id twice, a vehicle id missing', () => {
    const f = good();
    f.entity!.push({ id: 'vehicle-2', vehicle: { vehicle: { id: '1' }, timestamp: T } }, { id: 'vehicle-3', vehicle: { timestamp: T } });
    expect(rules(f)).toEqual(expect.arrayContaining(['E052', 'W002']));
  });

  it('W004: an unrealistic speed', () => {
    const f = good();
    f.entity![0]!.vehicle!.position!.speed = 40;
    expect(rules(f)).toContain('W004');
  });
});
