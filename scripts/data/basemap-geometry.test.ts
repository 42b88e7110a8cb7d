import { describe, expect, it } from 'vitest';
import {
  clipRingToBox,
  nestRings,
  padBox,
  pointInRing,
  preparePolygons,
  ringBox,
  roundRing,
  signedArea,
  simplifyRing,
  splitAtAntimeridian,
  topologyPolygons,
  type Box,
  type Ring,
} from './basemap-geometry.mjs';

/** Closed axis-aligned square, counter-clockwise. */
function square(x0: number, y0: number, x1: number, y1: number): Ring {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
}

describe('clipRingToBox', () => {
  const box: Box = [0, 0, 10, 10];

  it('cuts a ring that straddles the box to the part inside', () => {
    const clipped = clipRingToBox(square(5, 5, 15, 15), box);
    expect(clipped).not.toBeNull();
    expect(ringBox(clipped!)).toEqual([5, 5, 10, 10]);
    expect(Math.abs(signedArea(clipped!))).toBeCloseTo(25);
  });

  it('returns the box itself for a ring around it, and null for a ring outside', () => {
    expect(Math.abs(signedArea(clipRingToBox(square(-5, -5, 20, 20), box)!))).toBeCloseTo(100);
    expect(clipRingToBox(square(20, 20, 30, 30), box)).toBeNull();
  });

  it('keeps the area of a concave ring inside the box', () => {
    // A U shape whose two arms leave the box through its top edge.
    const u: Ring = [
      [1, 1],
      [9, 1],
      [9, 15],
      [7, 15],
      [7, 3],
      [3, 3],
      [3, 15],
      [1, 15],
      [1, 1],
    ];
    expect(Math.abs(signedArea(clipRingToBox(u, box)!))).toBeCloseTo(8 * 2 + 2 * 7 * 2);
  });
});

describe('simplifyRing and roundRing', () => {
  it('drops points within the tolerance and keeps the corners', () => {
    const noisy: Ring = [
      [0, 0],
      [5, 0.01],
      [10, 0],
      [10, 5],
      [10.01, 7],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const simplified = simplifyRing(noisy, 0.1);
    expect(simplified).toHaveLength(5);
    expect(simplified).toContainEqual([10, 10]);
    expect(simplified).toContainEqual([0, 10]);
  });

  it('rounds and removes points that became duplicates', () => {
    expect(
      roundRing(
        [
          [1.000001, 2],
          [1.000004, 2.000004],
          [3.123456, 4],
        ],
        5,
      ),
    ).toEqual([
      [1, 2],
      [3.12346, 4],
    ]);
  });
});

describe('nestRings', () => {
  it('makes holes of rings inside others whatever they were listed as, and orients them as RFC 7946', () => {
    const land = square(0, 0, 10, 10);
    const lake = square(2, 2, 4, 4);
    const islandInLake = square(2.5, 2.5, 3, 3);
    const otherIsland = square(20, 20, 21, 21);
    const polygons = nestRings([islandInLake, otherIsland, lake, land]);
    expect(polygons).toHaveLength(3);
    const mainland = polygons.find((p) => ringBox(p[0]!)[2] === 10)!;
    expect(mainland).toHaveLength(2);
    expect(signedArea(mainland[0]!)).toBeGreaterThan(0);
    expect(signedArea(mainland[1]!)).toBeLessThan(0);
    expect(ringBox(mainland[1]!)).toEqual([2, 2, 4, 4]);
    expect(polygons.filter((p) => p.length === 1)).toHaveLength(2);
  });

  it('places clipped rings by a vertex off the shared box edge', () => {
    const box: Box = [0, 0, 10, 10];
    const outer = clipRingToBox(square(-1, -1, 11, 11), box)!;
    const bay = clipRingToBox(square(5, -1, 6, 3), box)!; // touches the box's bottom edge
    const polygons = nestRings([outer, bay], box);
    expect(polygons).toHaveLength(1);
    expect(polygons[0]).toHaveLength(2);
  });
});

describe('splitAtAntimeridian', () => {
  it('cuts a ring that wraps across 180° into pieces on both sides', () => {
    const fiji: Ring = [
      [179, -17],
      [-179, -17],
      [-179, -16],
      [179, -16],
      [179, -17],
    ];
    const pieces = splitAtAntimeridian(fiji);
    expect(pieces).toHaveLength(2);
    const boxes = pieces.map(ringBox).sort((a, b) => a[0] - b[0]);
    expect(boxes).toEqual([
      [-180, -17, -179, -16],
      [179, -17, 180, -16],
    ]);
  });

  it('closes a ring around the south pole along -90° instead of banding the world', () => {
    const antarctica: Ring = [
      [-180, -70],
      [-90, -75],
      [0, -70],
      [90, -72],
      [180, -70],
      [-180, -70],
    ];
    const pieces = splitAtAntimeridian(antarctica);
    expect(pieces).toHaveLength(1);
    expect(ringBox(pieces[0]!)).toEqual([-180, -90, 180, -70]);
    expect(pointInRing([0, -80], pieces[0]!)).toBe(true);
    expect(pointInRing([0, -60], pieces[0]!)).toBe(false);
  });

  it('leaves rings that do not cross alone', () => {
    const ring = square(10, 10, 20, 20);
    expect(splitAtAntimeridian(ring)).toEqual([ring]);
  });
});

describe('topologyPolygons', () => {
  it('decodes quantized, delta-encoded arcs and reversed arc references', () => {
    const topology = {
      type: 'Topology',
      transform: { scale: [0.5, 0.5], translate: [10, 20] },
      // Arc 0: (0,0)->(4,0)->(4,4); arc 1: (0,0)->(0,4)->(4,4). Ring = arc 0 then arc 1 reversed.
      arcs: [
        [
          [0, 0],
          [4, 0],
          [0, 4],
        ],
        [
          [0, 0],
          [0, 4],
          [4, 0],
        ],
      ],
      objects: { land: { type: 'GeometryCollection', geometries: [{ type: 'Polygon', arcs: [[0, ~1]] }] } },
    };
    const [polygon] = topologyPolygons(topology, 'land');
    expect(polygon).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [10, 20],
          [12, 20],
          [12, 22],
          [10, 22],
          [10, 20],
        ],
      ],
    });
  });

  it('names the objects it has when asked for a missing one', () => {
    expect(() => topologyPolygons({ type: 'Topology', arcs: [], objects: { countries: {} } }, 'land')).toThrow(/has: countries/);
  });
});

describe('preparePolygons and padBox', () => {
  it('clips to the box, re-nests and drops rings below the minimum area', () => {
    const box: Box = [0, 0, 10, 10];
    const polygons = preparePolygons(
      [
        { type: 'Polygon', coordinates: [square(-5, -5, 15, 15)] },
        // A lake listed under an unrelated polygon, as @geo-maps does: still a hole of the land around it.
        { type: 'MultiPolygon', coordinates: [[square(30, 30, 40, 40), square(4, 4, 6, 6)]] },
        { type: 'Polygon', coordinates: [square(1, 1, 1.001, 1.001)] },
      ],
      { box, tolerance: 0.0001, decimals: 5, minArea: 0.01 },
    );
    expect(polygons).toHaveLength(1);
    expect(polygons[0]).toHaveLength(2);
    expect(ringBox(polygons[0]![0]!)).toEqual(box);
  });

  it('pads by kilometres, wider in longitude away from the equator', () => {
    const [minX, minY, maxX, maxY] = padBox([-74, 40, -73, 41], 3);
    expect(40 - minY).toBeCloseTo(3 / 111.32, 4);
    expect(maxY - 41).toBeCloseTo(3 / 111.32, 4);
    expect(-74 - minX).toBeGreaterThan(40 - minY);
    expect(maxX + 73).toBeCloseTo(-74 - minX, 10);
  });
});
