import { describe, expect, it } from 'vitest';
import { pointAlong, polyline, projectOnto } from './polyline';
import { distanceM, offsetLonLat } from './sphere';

const O = [-73.985, 40.75] as const;
const at = (east: number, north: number) => offsetLonLat(O[0], O[1], east, north);

describe('projectOnto', () => {
  // 1 km north, then 1 km east.
  const line = polyline([at(0, 0), at(0, 1000), at(1000, 1000)]);

  it('finds the nearest point of the line, its distance along and from it', () => {
    const [lon, lat] = at(30, 400);
    const p = projectOnto(line, lon, lat)!;
    expect(p.alongM).toBeCloseTo(400, 0);
    expect(p.offM).toBeCloseTo(30, 0);
    expect(p.segment).toBe(0);
    expect(p.heading).toBeCloseTo(0, 1);
    const onLine = pointAlong(line, p.alongM);
    expect(distanceM(onLine.lon, onLine.lat, p.lon, p.lat)).toBeLessThan(0.01);
  });

  it('clamps to the ends and picks the nearer segment at a corner', () => {
    const [lon, lat] = at(-50, -80);
    expect(projectOnto(line, lon, lat)!.alongM).toBe(0);
    const [clon, clat] = at(600, 980);
    const p = projectOnto(line, clon, clat)!;
    expect(p.segment).toBe(1);
    expect(p.alongM).toBeCloseTo(1600, 0);
    expect(p.heading).toBeCloseTo(90, 0);
  });

  it('searches only a window of the line, telling apart two passes along the same street', () => {
    // Up the street and back down it.
    const outAndBack = polyline([at(0, 0), at(0, 1000), at(8, 1000), at(8, 0)]);
    const [lon, lat] = at(4, 300);
    expect(projectOnto(outAndBack, lon, lat, 0, 1000)!.alongM).toBeCloseTo(300, 0);
    expect(projectOnto(outAndBack, lon, lat, 1008, outAndBack.lengthM)!.alongM).toBeCloseTo(1708, 0);
    // A window that ends mid-segment stops there.
    expect(projectOnto(outAndBack, lon, lat, 0, 200)!.alongM).toBeCloseTo(200, 0);
  });

  it('answers null for a window outside the line or a line of no length', () => {
    const [lon, lat] = at(0, 0);
    expect(projectOnto(line, lon, lat, 2500, 3000)).toBeNull();
    expect(projectOnto(polyline([at(0, 0), at(0, 0)]), lon, lat)).toBeNull();
  });
});
