import { offsetLonLat } from '../geo/sphere';
import { terminalOf, type SimNetwork } from './network';
import { SALT, seededStream, unit } from './random';
import type { FleetPlan } from './schedule';

// The buses: who they are (plates, fleet numbers, makes the MTA actually runs), which route each works
// (or whether it is a spare, in the shop or retired), and where it parks. Ids are shuffled so that id
// order says nothing about routes, as in a real fleet register.

export type BusCondition = 'active' | 'maintenance' | 'inactive';

interface BusModel {
  brand: string;
  model: string;
  years: [number, number];
  seats: number;
  /** First fleet number of the series. */
  series: number;
  weight: number;
}

// Makes and series of buses in MTA New York City Transit service; seat counts are typical layouts.
const STANDARD_MODELS: BusModel[] = [
  { brand: 'New Flyer', model: 'XD40', years: [2015, 2019], seats: 38, series: 7100, weight: 4 },
  { brand: 'New Flyer', model: 'XDE40', years: [2018, 2020], seats: 38, series: 8300, weight: 3 },
  { brand: 'New Flyer', model: 'XE40', years: [2019, 2024], seats: 35, series: 9560, weight: 1 },
  { brand: 'Nova Bus', model: 'LFS', years: [2013, 2019], seats: 39, series: 5800, weight: 4 },
  { brand: 'Nova Bus', model: 'LFS HEV', years: [2017, 2020], seats: 39, series: 8600, weight: 2 },
  { brand: 'Orion', model: 'VII NG HEV', years: [2010, 2013], seats: 35, series: 3850, weight: 2 },
];
const ARTICULATED_MODELS: BusModel[] = [
  { brand: 'New Flyer', model: 'XDE60', years: [2016, 2019], seats: 57, series: 5350, weight: 4 },
  { brand: 'New Flyer', model: 'XE60', years: [2023, 2024], seats: 55, series: 1200, weight: 1 },
  { brand: 'Nova Bus', model: 'LFS Articulated', years: [2011, 2019], seats: 55, series: 5250, weight: 3 },
];

// Manhattan bus depots (lon, lat); used when the network lies around them, else spares park at terminals.
const DEPOTS: Array<[number, number]> = [
  [-74.0005, 40.7588], // Michael J. Quill, W 41 St & 11 Av
  [-73.958, 40.8185], // Manhattanville, W 133 St
  [-73.937, 40.819], // Mother Clara Hale, W 146 St & Lenox Av
  [-73.9335, 40.804], // Tuskegee Airmen, E 126 St
];

export interface SimBus {
  id: number;
  /** Route index the bus works, or -1 for a spare. */
  routeIndex: number;
  slot: number;
  condition: BusCondition;
  /** False for the few buses whose GPS unit never reports. */
  hasGps: boolean;
  plateNumber: string | null;
  internalCode: string;
  busName: string;
  seats: number;
  brand: string;
  model: string;
  year: number;
  /** Seconds between GPS fixes, and the bus's phase within that period. */
  gpsPeriodS: number;
  gpsPhaseS: number;
  /** Where it stands when it has nowhere else to be (spares: a depot bay; route buses: the first terminal). */
  home: { lon: number; lat: number };
  /** Retired buses: how long before the sim started their GPS last reported, seconds. */
  staleGpsAgeS: number;
}

export interface Fleet {
  /** buses[id - 1]. */
  buses: SimBus[];
  slotBusIds: number[][];
}

function pick<T extends { weight: number }>(items: T[], u: number): T {
  const total = items.reduce((n, i) => n + i.weight, 0);
  let x = u * total;
  for (const item of items) {
    x -= item.weight;
    if (x < 0) return item;
  }
  return items[items.length - 1]!;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `BC1234`-style plate, unique per id: 7919 is coprime with 26 * 10,000, so the map is one-to-one. */
function plateFor(id: number): string {
  const n = (id * 7919) % 260_000;
  return `B${LETTERS[Math.floor(n / 10_000)]}${String(n % 10_000).padStart(4, '0')}`;
}

export function buildFleet(net: SimNetwork, seed: number, plan: FleetPlan): Fleet {
  const roles: Array<{ routeIndex: number; slot: number }> = [];
  plan.slotsPerRoute.forEach((n, r) => {
    for (let k = 0; k < n; k++) roles.push({ routeIndex: r, slot: k });
  });
  for (let j = 0; j < plan.spareBuses; j++) roles.push({ routeIndex: -1, slot: j });
  const rand = seededStream(seed ^ SALT.fleetShuffle);
  for (let i = roles.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [roles[i], roles[j]] = [roles[j]!, roles[i]!];
  }

  // Articulated buses run the Select Bus routes and the busiest local ones.
  const busiest = [...plan.slotsPerRoute].sort((a, b) => b - a)[Math.floor(net.routes.length * 0.15)] ?? Infinity;
  const articulatedRoute = net.routes.map((r, i) => r.serviceKind === 'select' || (plan.slotsPerRoute[i]! >= busiest && plan.slotsPerRoute[i]! > 0));

  const [minLon, minLat, maxLon, maxLat] = net.bbox;
  const depots = DEPOTS.filter(([lon, lat]) => lon >= minLon - 0.01 && lon <= maxLon + 0.01 && lat >= minLat - 0.01 && lat <= maxLat + 0.01);
  const parkings = depots.length > 0 ? depots : net.routes.map((r) => [terminalOf(r.directions[0]!, 'start').lon, terminalOf(r.directions[0]!, 'start').lat] as [number, number]);

  const usedNumbers = new Set<number>();
  const nextInSeries = new Map<BusModel, number>();
  const slotBusIds = plan.slotsPerRoute.map((n) => new Array<number>(n).fill(0));
  const buses = roles.map((role, i): SimBus => {
    const id = i + 1;
    const u = (salt: number, n = 0) => unit(seed, salt, id, n);
    const articulated = role.routeIndex >= 0 ? articulatedRoute[role.routeIndex]! && u(SALT.busModel) < 0.85 : u(SALT.busModel) < 0.2;
    const model = pick(articulated ? ARTICULATED_MODELS : STANDARD_MODELS, u(SALT.busModel, 1));
    let fleetNumber = nextInSeries.get(model) ?? model.series;
    while (usedNumbers.has(fleetNumber)) fleetNumber++;
    usedNumbers.add(fleetNumber);
    nextInSeries.set(model, fleetNumber + 1);

    let condition: BusCondition = 'active';
    if (role.routeIndex < 0) {
      const c = u(SALT.spareCondition);
      condition = c < 0.45 ? 'maintenance' : c < 0.65 ? 'inactive' : 'active';
    }
    let home: { lon: number; lat: number };
    if (role.routeIndex >= 0) {
      slotBusIds[role.routeIndex]![role.slot] = id;
      const t = terminalOf(net.routes[role.routeIndex]!.directions[0]!, 'start');
      home = { lon: t.lon, lat: t.lat };
    } else {
      const [lon, lat] = parkings[Math.floor(u(SALT.parking) * parkings.length)]!;
      // A bay in a depot yard: a grid of 12 x 4 m bays around the depot point.
      const [plon, plat] = offsetLonLat(lon, lat, (Math.floor(u(SALT.parking, 1) * 16) - 8) * 4, (Math.floor(u(SALT.parking, 2) * 8) - 4) * 12);
      home = { lon: plon, lat: plat };
    }
    const gpsPeriodS = 15 + Math.floor(u(SALT.gpsPeriod) * 16);
    return {
      id,
      routeIndex: role.routeIndex,
      slot: role.slot,
      condition,
      hasGps: u(SALT.gpsNone) >= 0.015,
      plateNumber: condition === 'inactive' && u(SALT.staleGps, 1) < 0.3 ? null : plateFor(id),
      internalCode: `MB-${fleetNumber}`,
      busName: `#${fleetNumber}`,
      seats: model.seats,
      brand: model.brand,
      model: model.model,
      year: model.years[0] + Math.floor(u(SALT.busModel, 2) * (model.years[1] - model.years[0] + 1)),
      gpsPeriodS,
      gpsPhaseS: Math.floor(u(SALT.gpsPeriod, 1) * gpsPeriodS),
      home,
      staleGpsAgeS: Math.round((1 + u(SALT.staleGps) * 19) * 86_400),
    };
  });
  return { buses, slotBusIds };
}
