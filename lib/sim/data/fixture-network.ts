import { pointAlong, polyline } from '../../geo/polyline';
import { distanceM } from '../../geo/sphere';
import type { NetworkData } from '../network';

// A small made-up network in the file format of manhattan-network.json, for fast tests: two crosstown
// routes with both directions and one one-way loop. Coordinates follow real Manhattan streets.

type LonLat = [number, number];

function direction(directionId: 0 | 1, headsign: string, shape: LonLat[], stopNames: string[], durationS: number, tripsPerHour: number[]) {
  let lengthM = 0;
  for (let i = 1; i < shape.length; i++) lengthM += distanceM(shape[i - 1]![0], shape[i - 1]![1], shape[i]![0], shape[i]![1]);
  const line = polyline(shape, lengthM);
  const stops = stopNames.map((name, i) => {
    const distM = Math.round((lengthM * i) / (stopNames.length - 1));
    const p = pointAlong(line, distM);
    return {
      stopId: `F${directionId}${String(i).padStart(3, '0')}`,
      name,
      lon: Math.round(p.lon * 1e5) / 1e5,
      lat: Math.round(p.lat * 1e5) / 1e5,
      offsetS: Math.round((durationS * i) / (stopNames.length - 1)),
      distM,
    };
  });
  return { directionId, headsign, shapeLengthM: Math.round(lengthM * 10) / 10, shape, stops, tripsPerHour };
}

const DAY = [1, 1, 0, 0, 0, 2, 4, 8, 10, 8, 6, 5, 5, 5, 5, 6, 8, 10, 8, 6, 4, 3, 2, 1];
const LOOP = [0, 0, 0, 0, 0, 0, 2, 4, 4, 3, 2, 2, 2, 2, 2, 2, 3, 4, 4, 2, 1, 0, 0, 0];

const W42: LonLat[] = [
  [-74.00276, 40.76195],
  [-73.99384, 40.75812],
  [-73.98441, 40.75417],
  [-73.97579, 40.75055],
  [-73.96865, 40.74752],
];
const W42_STOPS = ['12 AV/W 42 ST', '9 AV/W 42 ST', '6 AV/W 42 ST', 'LEXINGTON AV/E 42 ST', '1 AV/E 42 ST'];

const W86: LonLat[] = [
  [-73.97897, 40.78843],
  [-73.97266, 40.78571],
  [-73.95998, 40.78049],
  [-73.95461, 40.77823],
  [-73.94823, 40.77556],
];
const W86_STOPS = ['WEST END AV/W 86 ST', 'CENTRAL PARK W/W 86 ST', 'MADISON AV/E 86 ST', 'LEXINGTON AV/E 86 ST', 'YORK AV/E 86 ST'];

const LOOP_SHAPE: LonLat[] = [
  [-74.01355, 40.70468],
  [-74.0125, 40.70775],
  [-74.00898, 40.71154],
  [-74.00614, 40.71258],
  [-74.01001, 40.70708],
  [-74.01355, 40.70468],
];
const LOOP_STOPS = ['SOUTH FERRY', 'BROADWAY/RECTOR ST', 'CHURCH ST/FULTON ST', 'CITY HALL', 'WATER ST/WALL ST', 'SOUTH FERRY'];

/** A two-way route: direction 1 runs the same street back, a minute slower. */
function twoWayRoute(routeId: string, shortName: string, longName: string, color: string, shape: LonLat[], stops: string[], durationS: number) {
  return {
    routeId,
    shortName,
    longName,
    color,
    directions: [
      direction(0, stops[stops.length - 1]!, shape, stops, durationS, DAY),
      direction(1, stops[0]!, [...shape].reverse(), [...stops].reverse(), durationS + 60, DAY),
    ],
  };
}

export const fixtureNetwork: NetworkData = {
  source: 'fixture: made-up routes on real Manhattan streets',
  bbox: [-74.02, 40.7, -73.94, 40.79],
  routes: [
    twoWayRoute('F42', 'F42', 'W 42 St Pier - United Nations', 'EE352E', W42, W42_STOPS, 1500),
    twoWayRoute('F86+', 'F86-SBS', 'West Side - Yorkville', '00AEEF', W86, W86_STOPS, 1380),
    {
      routeId: 'FLOOP',
      shortName: 'FLOOP',
      longName: 'Lower Manhattan Loop',
      color: '6CBE45',
      directions: [direction(0, 'LOOP VIA CITY HALL', LOOP_SHAPE, LOOP_STOPS, 1200, LOOP)],
    },
  ],
};
