// The browser side of benchmark 5, bundled with esbuild by bench/map-update.ts and served only by it (it never
// ships in the app). Draws N synthetic buses on trips along synthetic routes either the way Fleetmap does (the
// app's placement, lib/placement/bus-placement, and its bus overlay, components/map/bus-overlay) or as one DOM marker
// per bus (maplibregl.Marker), then times updates (new fixes for every bus, or for 20) and glide frames.
import * as maplibregl from 'maplibre-gl';
import { offsetLonLat } from '@/lib/geo/sphere';
import type { DelayClass, RouteStop, Vehicle } from '@/lib/model';
import { resolveMapStyle } from '@/lib/map-style/resolve-style';
import { FLEET_MAP_RENDER_OPTIONS } from '@/components/map/render-options';
import { BusOverlay } from '@/components/map/bus-overlay';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import { PlacementCache, RecentFixes, placeBuses, type BusPlacement } from '@/lib/placement/bus-placement';

export type Contender = 'overlay' | 'markers';

const STALE_AFTER_S = 120;
const CLASSES: DelayClass[] = ['on-time', 'on-time', 'on-time', 'late', 'early', 'unknown'];
// Lower Midtown to the Village, the area the benchmark's view shows at its zoom: every bus is on screen.
const WEST = -74.02;
const EAST = -73.93;
const SOUTH = 40.73;
const NORTH = 40.77;
const ROUTES = 40;
const STOPS_PER_ROUTE = 16;
const STOP_SPACING_M = 300;
const TRIP_MS = 40 * 60_000;
/** A marker glide as the app had it: 1 s per update. */
const GLIDE_MS = 1_000;

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

/** Straight routes through the view, each with a start and an end stop: one direction, as the rule reads it. */
function routes(): Map<number, RouteStop[]> {
  const rnd = random(7);
  const out = new Map<number, RouteStop[]>();
  for (let r = 1; r <= ROUTES; r++) {
    const lon = WEST + 0.15 * (EAST - WEST) + rnd() * 0.7 * (EAST - WEST);
    const lat = SOUTH + 0.15 * (NORTH - SOUTH) + rnd() * 0.7 * (NORTH - SOUTH);
    const angle = rnd() * 2 * Math.PI;
    const half = ((STOPS_PER_ROUTE - 1) * STOP_SPACING_M) / 2;
    const stops: RouteStop[] = [];
    for (let i = 0; i < STOPS_PER_ROUTE; i++) {
      const d = i * STOP_SPACING_M - half;
      // A slight bend at every stop, so a bus turns as on a street grid.
      const wiggle = (i % 2 === 0 ? 1 : -1) * 20;
      const [longitude, latitude] = offsetLonLat(lon, lat, d * Math.cos(angle) - wiggle * Math.sin(angle), d * Math.sin(angle) + wiggle * Math.cos(angle));
      stops.push({ id: r * 100 + i, routeId: r, stopName: `R${r} S${i}`, stopOrder: i + 1, latitude, longitude, isStart: i === 0, isEnd: i === STOPS_PER_ROUTE - 1, status: 'active' });
    }
    out.set(r, stops);
  }
  return out;
}

const ROUTE_STOPS = routes();

/** Where a bus `progress` (0..1) along its route is. */
function alongRoute(routeId: number, progress: number): [number, number] {
  const stops = ROUTE_STOPS.get(routeId)!;
  const x = Math.min(0.999999, Math.max(0, progress)) * (stops.length - 1);
  const i = Math.floor(x);
  const t = x - i;
  const a = stops[i]!;
  const b = stops[i + 1]!;
  return [a.longitude! + t * (b.longitude! - a.longitude!), a.latitude! + t * (b.latitude! - a.latitude!)];
}

interface Bus {
  vehicle: Vehicle;
  progress: number;
}

function fleet(n: number, now: number): Bus[] {
  const rnd = random(n);
  const buses: Bus[] = [];
  for (let i = 0; i < n; i++) {
    const cls = CLASSES[i % CLASSES.length]!;
    const routeId = 1 + (i % ROUTES);
    const progress = 0.05 + rnd() * 0.8;
    const departedAt = now - progress * TRIP_MS;
    const [lon, lat] = alongRoute(routeId, progress);
    buses.push({
      progress,
      vehicle: {
        busId: i + 1,
        plateNumber: `BC${1000 + i}`,
        busName: `#${5000 + i}`,
        internalCode: `MB-${5000 + i}`,
        lat,
        lon,
        heading: null,
        speedKmh: 10 + rnd() * 20,
        accuracy: 5,
        gpsAt: now - rnd() * 30_000,
        fetchedAt: now,
        trip: {
          tripId: 1_000_000 + i,
          routeId,
          routeCode: `M${routeId}`,
          routeName: null,
          direction: 'outbound',
          status: 'started',
          delayMinutes: cls === 'late' ? 7 : cls === 'early' ? -2 : cls === 'unknown' ? null : 1,
          delayClass: cls,
          plannedDepartureAt: departedAt,
          plannedArrivalAt: departedAt + TRIP_MS,
          actualDepartureAt: departedAt,
          actualArrivalAt: null,
        },
      },
    });
  }
  return buses;
}

/** New fixes for the first `count` buses, each 10–40 m further along its route, as after one poll. */
function moved(buses: Bus[], now: number, step: number, count: number): Bus[] {
  const rnd = random(buses.length * 31 + step);
  const routeLength = (STOPS_PER_ROUTE - 1) * STOP_SPACING_M;
  return buses.map((b, i) => {
    if (i >= count) return b;
    const progress = Math.min(0.99, b.progress + (10 + rnd() * 30) / routeLength);
    const [lon, lat] = alongRoute(b.vehicle.trip!.routeId!, progress);
    return { progress, vehicle: { ...b.vehicle, lat, lon, gpsAt: now, fetchedAt: now } };
  });
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame((t) => resolve(t)));

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
  buses: Bus[];
  markers: maplibregl.Marker[];
  overlay: BusOverlay | null;
  recent: RecentFixes;
  cache: PlacementCache;
  placements: BusPlacement[];
  /** Marker positions before the last update, for their glide. */
  from: [number, number][];
  step: number;
}

let drawn: Drawn | null = null;

async function createMap(zoom: number): Promise<maplibregl.Map> {
  maplibregl.setWorkerUrl('/maplibre-gl-worker.mjs');
  const container = document.getElementById('map')!;
  const map = new maplibregl.Map({
    container,
    style: resolveMapStyle({ theme: 'light', origin: window.location.origin, styleUrl: null, styleUrlDark: null }),
    center: [(WEST + EAST) / 2, (SOUTH + NORTH) / 2],
    zoom,
    maxPitch: 0,
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

/** What the app does with a new snapshot: place every bus (estimates along its route) and hand the overlay the result. */
function place(d: Drawn, now: number) {
  const vehicles = d.buses.map((b) => b.vehicle);
  d.recent.record(vehicles);
  d.placements = placeBuses(vehicles, { mode: 'estimates', stopsByRoute: ROUTE_STOPS, recent: d.recent, now, staleAfterS: STALE_AFTER_S, cache: d.cache });
  d.overlay!.update({ placements: d.placements, selectedBusId: null, placedAt: now, now });
}

/** Draws the first N buses at `zoom`; resolves with the milliseconds until they are on screen. */
async function setup(contender: Contender, n: number, zoom: number): Promise<number> {
  const map = await createMap(zoom);
  const now = Date.now();
  const buses = fleet(n, now);
  const t0 = performance.now();
  const d: Drawn = { map, contender, buses, markers: [], overlay: null, recent: new RecentFixes(), cache: new PlacementCache(), placements: [], from: [], step: 0 };
  if (contender === 'overlay') {
    // No clustered layer here: the overlay draws every bus at every zoom.
    d.overlay = new BusOverlay(map, () => true);
    place(d, now);
  } else {
    for (const b of buses) d.markers.push(new maplibregl.Marker({ element: markerElement(b.vehicle.trip!.delayClass) }).setLngLat([b.vehicle.lon!, b.vehicle.lat!]).addTo(map));
  }
  await nextFrame();
  await nextFrame();
  drawn = d;
  return performance.now() - t0;
}

export interface UpdateTiming {
  /** From the start of the update until it is on screen. */
  ms: number;
  /** Until the data was handed over (overlay: placed and written; markers: every setLngLat done). */
  dataMs: number;
  /** Map frames meanwhile (the overlay never makes the map redraw). */
  renders: number;
  /** Buses placed on the map after the update. */
  placed: number;
}

/** New fixes for `count` buses (all by default), timed until they are on screen. */
async function update(count?: number): Promise<UpdateTiming> {
  if (!drawn) throw new Error('setup() first');
  const d = drawn;
  let renders = 0;
  const onRender = () => renders++;
  d.map.on('render', onRender);
  const now = Date.now();
  const t0 = performance.now();
  d.from = d.buses.map((b) => [b.vehicle.lon!, b.vehicle.lat!]);
  d.buses = moved(d.buses, now, ++d.step, count ?? d.buses.length);
  if (d.contender === 'overlay') place(d, now);
  else d.buses.forEach((b, i) => d.markers[i]!.setLngLat([b.vehicle.lon!, b.vehicle.lat!]));
  const dataMs = performance.now() - t0;
  await nextFrame();
  await nextFrame();
  const ms = performance.now() - t0;
  d.map.off('render', onRender);
  return { ms, dataMs, renders, placed: d.contender === 'overlay' ? d.placements.length : d.markers.length };
}

/**
 * `frames` animation frames of motion: the overlay draws the buses where the GPU puts them at that instant (one
 * uniform, three draw calls); the markers glide from their previous fixes to the new ones, each moved by
 * setLngLat, as the app moved its buses before. Resolves with the mean page-side milliseconds per frame.
 */
async function glide(frames: number): Promise<number> {
  if (!drawn) throw new Error('setup() first');
  const d = drawn;
  let spent = 0;
  for (let f = 0; f < frames; f++) {
    await nextFrame();
    const t0 = performance.now();
    if (d.contender === 'overlay') d.overlay!.draw();
    else {
      const k = Math.min(1, (f + 1) / Math.max(1, Math.round(GLIDE_MS / 16.7)));
      d.buses.forEach((b, i) => {
        const [x0, y0] = d.from[i]!;
        d.markers[i]!.setLngLat([x0 + (b.vehicle.lon! - x0) * k, y0 + (b.vehicle.lat! - y0) * k]);
      });
    }
    spent += performance.now() - t0;
  }
  await nextFrame();
  return spent / frames;
}

/** Buses on screen: the overlay's own count, or the markers in the DOM. */
function drawnCount(): number {
  if (!drawn) return 0;
  if (drawn.contender === 'markers') return document.querySelectorAll('.maplibregl-marker').length;
  return drawn.overlay!.drawn().length;
}

/** Estimated buses among those placed (the synthetic trips all have a route: every one should be). */
function estimatedCount(): number {
  return drawn?.placements.filter((p) => p.estimate.basis !== 'fix').length ?? 0;
}

declare global {
  interface Window {
    __bench?: { setup: typeof setup; update: typeof update; glide: typeof glide; drawnCount: typeof drawnCount; estimatedCount: typeof estimatedCount; look: typeof look };
  }
}

/** Experiments: draw the overlay's buses at another scale (fewer pixels per bus). */
function look(scale: number) {
  drawn?.overlay?.setLook('light', scale);
}

window.__bench = { setup, update, glide, drawnCount, estimatedCount, look };
