import { describe, expect, it } from 'vitest';
import type { Position } from './basemap-geometry.mjs';
import { locateOnLine, placeLabels, sharedStreet, sliceBetween, streetLabel, streetParts, streetSkeleton } from './basemap-labels.mjs';

describe('street names from stop names', () => {
  it('splits a corner into its streets, tidying spaces and case', () => {
    expect(streetParts('CLEVELAND  PL/Spring St ')).toEqual(['CLEVELAND PL', 'SPRING ST']);
    expect(streetParts('RIVERSIDE DR')).toEqual(['RIVERSIDE DR']);
  });

  it('finds the street two consecutive stops share, whichever side of the slash it is on', () => {
    expect(sharedStreet('MADISON AV/E 72 ST', 'MADISON AV/E 79 ST')).toBe('MADISON AV');
    expect(sharedStreet('PARK AV SOUTH/E 23 ST', 'E 25 ST/PARK AV SOUTH')).toBe('PARK AV SOUTH');
    expect(sharedStreet('LAFAYETTE ST/ASTOR PL', '4 AV/E 10 ST')).toBeNull();
  });

  it('title-cases a street as its sign reads, keeping numbers and initialisms', () => {
    expect(streetLabel('W 125 ST')).toBe('W 125 St');
    expect(streetLabel('FDR DR')).toBe('FDR Dr');
    expect(streetLabel('ADAM C POWELL BLVD')).toBe('Adam C Powell Blvd');
  });
});

describe('cutting a shape at its stops', () => {
  const line: Position[] = [
    [0, 0],
    [0, 0.01],
    [0.01, 0.01],
    [0.01, 0],
    [0, 0], // back to the start: a loop
  ];

  it('projects a stop onto the nearest segment, searching forward from the previous stop', () => {
    expect(locateOnLine(line, [0.0001, 0.005])).toEqual({ index: 0, t: expect.closeTo(0.5, 6) });
    // The same corner at the end of the loop, found there when searching from segment 2 on.
    expect(locateOnLine(line, [0.0001, 0.0001], 2).index).toBe(3);
  });

  it('slices the line between two located points', () => {
    const from = locateOnLine(line, [0, 0.005]);
    const to = locateOnLine(line, [0.005, 0.01], from.index);
    const piece = sliceBetween(line, from, to);
    expect(piece[0]![1]).toBeCloseTo(0.005, 9);
    expect(piece[1]).toEqual([0, 0.01]);
    expect(piece[2]![0]).toBeCloseTo(0.005, 9);
  });
});

describe('streetSkeleton', () => {
  // An L-shaped route: up Madison Av, then along E 72 St.
  const shape: Position[] = [
    [-73.97, 40.76],
    [-73.97, 40.77],
    [-73.96, 40.77],
  ];
  const stops = [
    { name: 'MADISON AV/E 60 ST', lon: -73.97, lat: 40.76 },
    { name: 'MADISON AV/E 65 ST', lon: -73.97, lat: 40.765 },
    { name: 'MADISON AV/E 69 ST', lon: -73.97, lat: 40.768 },
    // Round the corner: the stretch from E 69 St shares no street with this stop and stays unnamed.
    { name: 'E 72 ST/PARK AV', lon: -73.965, lat: 40.77 },
    { name: 'LEXINGTON AV/E 72 ST', lon: -73.96, lat: 40.77 },
  ];

  it('names each stretch after the street its stops share and joins consecutive stretches of one street', () => {
    const features = streetSkeleton([{ shape, stops }]);
    expect(features.map((f) => f.properties.name)).toEqual(['Madison Av', undefined, 'E 72 St']);
    const madison = features[0]!.geometry.coordinates;
    // Joined over the stop at E 65 St, whose cut point (on a straight stretch) is simplified away.
    expect(madison).toEqual([
      [-73.97, 40.76],
      [-73.97, 40.768],
    ]);
    expect(features[1]!.geometry.coordinates).toEqual([
      [-73.97, 40.768],
      [-73.97, 40.77],
      [-73.965, 40.77],
    ]);
  });

  it('keeps a stretch once when another route or the other direction draws it again', () => {
    const reversed = { shape: [...shape].reverse(), stops: [...stops].reverse() };
    const twice = streetSkeleton([{ shape, stops }, { shape, stops }, reversed]);
    expect(twice).toHaveLength(3);
  });
});

describe('placeLabels', () => {
  it('keeps the places in the box, largest first, ranked by population', () => {
    const labels = placeLabels(
      [
        { name: 'Harlem', population: 116_345, lon: -73.945, lat: 40.808 },
        { name: 'Inwood', population: 10_082, lon: -73.927, lat: 40.866 },
        { name: 'Manhattan', population: 1_487_536, lon: -73.966, lat: 40.783 },
        { name: 'Albany', population: 97_856, lon: -73.756, lat: 42.653 },
      ],
      [-74.06, 40.67, -73.82, 40.9],
    );
    expect(labels.map((l) => [l.properties.name, l.properties.rank])).toEqual([
      ['Manhattan', 1],
      ['Harlem', 2],
      ['Inwood', 3],
    ]);
    expect(labels[0]!.geometry.coordinates).toEqual([-73.966, 40.783]);
  });
});
