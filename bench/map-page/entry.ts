// The browser side of benchmark 5, bundled with esbuild by bench/map-update.ts and served only by it (it
// never ships in the app). Draws N synthetic buses either the way Fleetmap does (its bus layer module: one
// clustered GeoJSON source, features built by lib/view/bus-features, setData per update) or as one DOM
// marker per bus (maplibregl.Marker), and times one update until it is on screen.
import * as maplibregl from 'maplibre-gl';
import { BUS_LAYER_ID, BUS_LAYERS, BUS_SOURCE_ID, busSource, ensureHeadingIcon } from '@/components/map/layers/bus-layer';
import { addSourceAndLayers } from '@/components/map/use-map-layers';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import { busCollections, busPoints } from '@/lib/view/bus-features';
import type { DelayClass, Vehicle } from '@/lib/model';
import { resolveMapStyle } from '@/lib/map-style/resolve-style';
import { FLEET_MAP_RENDER_OPTIONS } from '@/components/map/render-options';

export type Contender = 'layers' | 'markers';

const STALE_AFTER_S = 120;
const CLASSES: DelayClass[] = ['on-time', 'on-time', 'on-time', 'late', 'early', 'unknown'];
// Lower Midtown to the Village, the area the benchmark's view shows at its zoom: every bus is on screen.
const WEST = -74.02;
const EAST = -73.93;
const SOUTH = 40.73;
const NORTH = 40.77;

/** A small deterministic generator: every run draws the same fleet. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fleet(n: number, now: number): Vehicle[] {
  const rnd = random(n);
  const vehicles: Vehicle[] = [];
  for (let i = 0; i < n; i++) {
    const cls = CLASSES[i % CLASSES.length]!;
    vehicles.push({
      busId: i + 1,
      plateNumber: `BC${1000 + i}`,
      busName: `#${5000 + i}`,
      internalCode: `MB-${5000 + i}`,
      lat: SOUTH + rnd() * (NORTH - SOUTH),
      lon: WEST + rnd() * (EAST - WEST),
      heading: rnd() * 360,
      speedKmh: 5 + rnd() * 30,
      accuracy: 5,
      gpsAt: now - rnd() * 60_000,
      fetchedAt: now,
      trip: {
        tripId: 1_000_000 + i,
        routeId: 1 + (i % 41),
        routeCode: `M${1 + (i % 41)}`,
        routeName: null,
        direction: 'outbound',
        status: 'started',
        delayMinutes: cls === 'late' ? 7 : cls === 'early' ? -2 : cls === 'unknown' ? null : 1,
        delayClass: cls,
        plannedDepartureAt: null,
        plannedArrivalAt: null,
        actualDepartureAt: null,
        actualArrivalAt: null,
      },
    });
  }
  return vehicles;
}

/** Every bus moves 10–40 m along its heading, as after one poll of a live feed. */
function moved(vehicles: Vehicle[], now: number, step: number): Vehicle[] {
  const rnd = random(vehicles.length * 31 + step);
  return vehicles.map((v) => {
    const metres = 10 + rnd() * 30;
    const rad = ((v.heading ?? 0) * Math.PI) / 180;
    const dLat = (metres * Math.cos(rad)) / 111_320;
    const dLon = (metres * Math.sin(rad)) / (111_320 * Math.cos(((v.lat ?? 0) * Math.PI) / 180));
    return { ...v, lat: v.lat! + dLat, lon: v.lon! + dLon, gpsAt: now, fetchedAt: now };
  });
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

function idleOnce(map: maplibregl.Map): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the map did not become idle within 60 s')), 60_000);
    map.once('idle', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

interface Drawn {
  map: maplibregl.Map;
  contender: Contender;
  vehicles: Vehicle[];
  markers: maplibregl.Marker[];
  step: number;
}

let drawn: Drawn | null = null;

async function createMap(): Promise<maplibregl.Map> {
  maplibregl.setWorkerUrl('/maplibre-gl-worker.mjs');
  const container = document.getElementById('map')!;
  const map = new maplibregl.Map({
    container,
    style: resolveMapStyle({ theme: 'light', origin: window.location.origin, styleUrl: null, styleUrlDark: null }),
    center: [(WEST + EAST) / 2, (SOUTH + NORTH) / 2],
    // Past the bus layer's cluster zoom, so every bus is drawn on its own, as a dispatcher zoomed in sees it.
    zoom: 13.2,
    attributionControl: false,
    ...FLEET_MAP_RENDER_OPTIONS,
  });
  await idleOnce(map);
  return map;
}

function markerElement(cls: DelayClass): HTMLDivElement {
  const el = document.createElement('div');
  el.style.cssText = `width:11px;height:11px;border-radius:50%;border:1.5px solid #fff;box-sizing:border-box;background:${DELAY_COLORS.light[cls]}`;
  return el;
}

function layersData(vehicles: Vehicle[], now: number) {
  return busCollections(busPoints(vehicles, now, STALE_AFTER_S), null, null).clustered;
}

/** Draws the first N buses; resolves with the milliseconds until they are on screen. */
async function setup(contender: Contender, n: number): Promise<number> {
  const map = await createMap();
  const now = Date.now();
  const vehicles = fleet(n, now);
  const t0 = performance.now();
  const markers: maplibregl.Marker[] = [];
  if (contender === 'layers') {
    ensureHeadingIcon(map);
    addSourceAndLayers(map, BUS_SOURCE_ID, busSource, BUS_LAYERS.light);
    const idle = idleOnce(map);
    await map.getSource<maplibregl.GeoJSONSource>(BUS_SOURCE_ID)!.setData(layersData(vehicles, now));
    await idle;
  } else {
    for (const v of vehicles) markers.push(new maplibregl.Marker({ element: markerElement(v.trip!.delayClass) }).setLngLat([v.lon!, v.lat!]).addTo(map));
    await nextFrame();
    await nextFrame();
  }
  drawn = { map, contender, vehicles, markers, step: 0 };
  return performance.now() - t0;
}

export interface UpdateTiming {
  /** From the start of the update until it is on screen. */
  ms: number;
  /** Until the data was handed over (layers: setData resolved; markers: every setLngLat done). */
  dataMs: number;
  /** Frames the map rendered meanwhile (symbol fades keep it rendering for a while after new data). */
  renders: number;
}

/** One update of every bus's position, timed until it is on screen. */
async function update(): Promise<UpdateTiming> {
  if (!drawn) throw new Error('setup() first');
  const d = drawn;
  let renders = 0;
  const onRender = () => renders++;
  d.map.on('render', onRender);
  const now = Date.now();
  const t0 = performance.now();
  let dataMs: number;
  d.vehicles = moved(d.vehicles, now, ++d.step);
  if (d.contender === 'layers') {
    const idle = idleOnce(d.map);
    await d.map.getSource<maplibregl.GeoJSONSource>(BUS_SOURCE_ID)!.setData(layersData(d.vehicles, now));
    dataMs = performance.now() - t0;
    await idle;
  } else {
    d.vehicles.forEach((v, i) => d.markers[i]!.setLngLat([v.lon!, v.lat!]));
    dataMs = performance.now() - t0;
    await nextFrame();
    await nextFrame();
  }
  const ms = performance.now() - t0;
  d.map.off('render', onRender);
  return { ms, dataMs, renders };
}

/** Median time of one full map frame (a repaint with nothing changed), for context: SwiftShader draws on the CPU. */
async function frameMs(): Promise<number> {
  if (!drawn) throw new Error('setup() first');
  const map = drawn.map;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      map.once('render', () => resolve());
      map.triggerRepaint();
    });
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[2]!;
}

function drawnCount(): number {
  if (!drawn) return 0;
  if (drawn.contender === 'markers') return document.querySelectorAll('.maplibregl-marker').length;
  return drawn.map.queryRenderedFeatures({ layers: [BUS_LAYER_ID] }).length;
}

declare global {
  interface Window {
    __bench?: { setup: typeof setup; update: typeof update; frameMs: typeof frameMs; drawnCount: typeof drawnCount };
  }
}

window.__bench = { setup, update, frameMs, drawnCount };
