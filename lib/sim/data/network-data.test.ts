// Invariants of the committed network derived from MTA GTFS by scripts/data/derive-network.mjs: the simulator
// trusts this file, so a regeneration that breaks any of them must fail here rather than on the map.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { distanceM } from '../../geo/sphere';

const networkFile = fileURLToPath(new URL('./manhattan-network.json', import.meta.url));

const lonLat = z.tuple([z.number(), z.number()]);
const stopSchema = z.strictObject({
  stopId: z.string().min(1),
  name: z.string().min(1),
  lon: z.number(),
  lat: z.number(),
  offsetS: z.number().int().nonnegative(),
  distM: z.number().nonnegative(),
});
const directionSchema = z.strictObject({
  directionId: z.union([z.literal(0), z.literal(1)]),
  headsign: z.string(),
  shapeLengthM: z.number().positive(),
  shape: z.array(lonLat).min(2),
  stops: z.array(stopSchema).min(2),
  tripsPerHour: z.array(z.number().int().nonnegative()).length(24),
});
const networkSchema = z.strictObject({
  source: z.string().min(1),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  routes: z.array(
    z.strictObject({
      routeId: z.string().min(1),
      shortName: z.string().min(1),
      longName: z.string(),
      color: z.string().regex(/^[0-9A-F]{6}$/),
      directions: z.array(directionSchema).min(1).max(2),
    }),
  ),
});

const network = networkSchema.parse(JSON.parse(readFileSync(networkFile, 'utf8')));
const directions = network.routes.flatMap((r) => r.directions.map((d) => ({ route: r.shortName, ...d })));

// Manhattan with the bridges and airports its routes reach (LaGuardia, The Hub, Randall's Island).
const MANHATTAN_ISH = { minLon: -74.1, maxLon: -73.8, minLat: 40.6, maxLat: 40.95 };

/** The point at `distM` metres along a polyline, interpolating within the segment. */
function pointAlong(shape: [number, number][], distM: number): [number, number] {
  let travelled = 0;
  for (let i = 1; i < shape.length; i++) {
    const a = shape[i - 1]!;
    const b = shape[i]!;
    const seg = distanceM(a[0], a[1], b[0], b[1]);
    if (travelled + seg >= distM) {
      const t = seg === 0 ? 0 : (distM - travelled) / seg;
      return [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
    }
    travelled += seg;
  }
  return shape[shape.length - 1]!;
}

const isNonDecreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x >= xs[i - 1]!);

describe('manhattan-network.json', () => {
  it('is compact enough to ship with the app', () => {
    expect(statSync(networkFile).size).toBeLessThan(1024 * 1024);
  });

  it('holds the Manhattan routes, unique and in natural order of short name', () => {
    expect(network.routes.length).toBeGreaterThanOrEqual(30);
    const ids = network.routes.map((r) => r.routeId);
    expect(new Set(ids).size).toBe(ids.length);
    const names = network.routes.map((r) => r.shortName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
    expect(names.slice(0, 3)).toEqual(['M1', 'M2', 'M3']);
    expect(names.indexOf('M10')).toBeGreaterThan(names.indexOf('M9'));
  });

  it('gives each route distinct directions', () => {
    for (const r of network.routes) {
      const ids = r.directions.map((d) => d.directionId);
      expect(new Set(ids).size, r.shortName).toBe(ids.length);
    }
  });

  it('keeps every coordinate inside the bbox and around Manhattan', () => {
    const [minLon, minLat, maxLon, maxLat] = network.bbox;
    expect(minLon).toBeGreaterThanOrEqual(MANHATTAN_ISH.minLon);
    expect(maxLon).toBeLessThanOrEqual(MANHATTAN_ISH.maxLon);
    expect(minLat).toBeGreaterThanOrEqual(MANHATTAN_ISH.minLat);
    expect(maxLat).toBeLessThanOrEqual(MANHATTAN_ISH.maxLat);
    for (const d of directions) {
      for (const [lon, lat] of [...d.shape, ...d.stops.map((s) => [s.lon, s.lat] as const)]) {
        expect(lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat, `${d.route}/${d.directionId} ${lon},${lat}`).toBe(true);
      }
    }
  });

  it('times stops from the first one, never going back', () => {
    for (const d of directions) {
      const offsets = d.stops.map((s) => s.offsetS);
      expect(offsets[0], d.route).toBe(0);
      expect(isNonDecreasing(offsets), `${d.route}/${d.directionId}`).toBe(true);
      // A trip that takes no time, or more than three hours, would be a parsing error, not a bus.
      expect(offsets.at(-1)!, d.route).toBeGreaterThan(5 * 60);
      expect(offsets.at(-1)!, d.route).toBeLessThan(3 * 3600);
    }
  });

  it('states the shape length it carries', () => {
    for (const d of directions) {
      let length = 0;
      for (let i = 1; i < d.shape.length; i++) length += distanceM(d.shape[i - 1]![0], d.shape[i - 1]![1], d.shape[i]![0], d.shape[i]![1]);
      expect(Math.abs(length - d.shapeLengthM), `${d.route}/${d.directionId}`).toBeLessThanOrEqual(1);
    }
  });

  it('places stops along the shape in order, each near the point its distance names', () => {
    for (const d of directions) {
      const along = d.stops.map((s) => s.distM);
      expect(isNonDecreasing(along), `${d.route}/${d.directionId}`).toBe(true);
      expect(along.at(-1)!, d.route).toBeLessThanOrEqual(d.shapeLengthM + 50);
      // Stops sit at the kerb, a street's half-width from the centreline the shape follows.
      for (const s of d.stops) {
        expect(distanceM(...pointAlong(d.shape, s.distM), s.lon, s.lat), `${d.route}/${d.directionId} ${s.name}`).toBeLessThan(60);
      }
    }
  });

  it('runs a realistic weekday frequency', () => {
    const byHour = Array.from({ length: 24 }, (_, h) => directions.reduce((n, d) => n + d.tripsPerHour[h]!, 0));
    const peak = Math.max(...byHour);
    const peakHour = byHour.indexOf(peak);
    // About 40 routes at 5–20 buses an hour each way, busiest in the morning or evening rush.
    expect(peak).toBeGreaterThan(300);
    expect(peak).toBeLessThan(1500);
    expect([7, 8, 16, 17, 18]).toContain(peakHour);
    expect(byHour[3]!).toBeLessThan(peak / 4);
    for (const d of directions) {
      expect(Math.max(...d.tripsPerHour), `${d.route}/${d.directionId}`).toBeGreaterThan(0);
      expect(Math.max(...d.tripsPerHour), `${d.route}/${d.directionId}`).toBeLessThanOrEqual(40);
    }
  });
});
