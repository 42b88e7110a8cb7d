import { describe, expect, it } from 'vitest';
import { estimatePosition, routePath } from '@/lib/estimate';
import { MIN, T0, fix, stopsAlong, trip } from '@/lib/testing/estimate-factories';
import { distanceM } from '@/lib/geo/sphere';
import { KEY_MAX_MS, frameIntervalMs, keyAt, lonLatOfMercator, mercator, metresPerPixel, placementSignature } from './bus-keyframes';
import type { BusPlacement } from '@/lib/placement/bus-placement';

// East 500 m, then north 500 m; a 10-minute trip.
const corner = routePath(stopsAlong([[0, 0], [500, 0], [500, 500]]))!;

const lerp = (a: [number, number], b: [number, number], k: number): [number, number] => [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k];

describe('keys of the bus overlay', () => {
  it('runs a moving estimate towards its next stop, and a straight line between the two keys is where the estimate is', () => {
    const e = estimatePosition({ path: corner, trip: trip(), fixes: [], now: T0 + MIN })!;
    // 240 s to the corner: the key stops at its longest, KEY_MAX_MS; 10 s before the corner, at the corner.
    const k = keyAt(e, T0 + MIN);
    expect(k.toAt - k.fromAt).toBe(KEY_MAX_MS);
    expect((keyAt(e, T0 + 4 * MIN + 50_000).toAt - (T0 + 4 * MIN + 50_000)) / 1000).toBeCloseTo(10, 3);
    expect(k.renewAt).toBe(k.toAt);
    const half = (k.fromAt + k.toAt) / 2;
    const [lon, lat] = lonLatOfMercator(...lerp(k.from, k.to, 0.5));
    const truth = estimatePosition({ path: corner, trip: trip(), fixes: [], now: half })!;
    expect(distanceM(lon, lat, truth.lon, truth.lat)).toBeLessThan(0.1);
    expect(k.speedMps).toBeCloseTo(1000 / 600, 3);
  });

  it('keeps a fix where it is, for good', () => {
    const held = estimatePosition({ path: null, trip: null, fixes: [fix(0, 0, T0)], now: T0 + MIN })!;
    const k = keyAt(held, T0 + MIN);
    expect(k.to).toEqual(k.from);
    expect(k.renewAt).toBeNull();
    expect(k.speedMps).toBe(0);
  });

  it('renews a standing estimate while its uncertainty grows', () => {
    // A trip that has not left yet: the schedule holds the bus at its first stop.
    const e = estimatePosition({ path: corner, trip: trip({ actualDepartureAt: null, plannedDepartureAt: T0 + 5 * MIN, plannedArrivalAt: T0 + 15 * MIN }), fixes: [], now: T0 })!;
    const k = keyAt(e, T0);
    expect(k.to).toEqual(k.from);
    expect(k.renewAt).toBe(T0 + KEY_MAX_MS);
  });
});

describe('mercator', () => {
  it('round-trips and measures pixels as MapLibre does (512-pixel world)', () => {
    const [lon, lat] = lonLatOfMercator(...mercator(-73.98, 40.75));
    expect(lon).toBeCloseTo(-73.98, 9);
    expect(lat).toBeCloseTo(40.75, 9);
    // Zoom 0 at the equator: the Earth's circumference over 512 pixels.
    expect(metresPerPixel(0, 0)).toBeCloseTo(78_271.5, 0);
  });
});

describe('frame interval', () => {
  it('draws as often as the fastest bus moves half a pixel, between 30 frames a second and one', () => {
    expect(frameIntervalMs(0, 10)).toBeNull();
    expect(frameIntervalMs(5, 10)).toBe(1000);
    expect(frameIntervalMs(5, 1)).toBe(100);
    expect(frameIntervalMs(500, 1)).toBeCloseTo(1000 / 30, 6);
  });
});

describe('placement signature', () => {
  const place = (now: number, over: Partial<BusPlacement> = {}): BusPlacement => ({
    busId: 1,
    estimate: estimatePosition({ path: corner, trip: trip(), fixes: [], now })!,
    cls: 'on-time',
    stale: false,
    label: 'M1',
    ...over,
  });

  it('is the same for the same motion placed at another instant, and changes with what is drawn', () => {
    expect(placementSignature(place(T0 + MIN))).toBe(placementSignature(place(T0 + 2 * MIN)));
    expect(placementSignature(place(T0 + MIN, { stale: true }))).not.toBe(placementSignature(place(T0 + MIN)));
    expect(placementSignature(place(T0 + MIN, { cls: 'late' }))).not.toBe(placementSignature(place(T0 + MIN)));
  });
});
