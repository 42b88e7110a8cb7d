// What the bus overlay hands the GPU for each bus: two points of its route and the instants it is at them, so
// the vertex shader moves it in a straight line at its estimated pace with no work per frame on the main thread.
// A key lasts until the bus reaches its next stop (where the route may turn) or KEY_MAX_MS, whichever is first.
// Pure: tested without a browser.
import { estimateAt, straightUntil, type Estimate } from '@/lib/estimate';
import type { EpochMs } from '@/lib/model';
import type { BusPlacement } from '@/lib/placement/bus-placement';

/** A key is renewed at least this often: the uncertainty radius grows along a curve the GPU follows in chords. */
export const KEY_MAX_MS = 30_000;

/** Web Mercator in world units (0..1 from the antimeridian west and from the north edge), as MapLibre uses. */
export function mercator(lon: number, lat: number): [number, number] {
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return [(lon + 180) / 360, 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)];
}

export function lonLatOfMercator(x: number, y: number): [number, number] {
  return [x * 360 - 180, (360 / Math.PI) * Math.atan(Math.exp((0.5 - y) * 2 * Math.PI)) - 90];
}

/** Web Mercator's sphere is the WGS 84 equator's, not the mean Earth radius lib/geo measures distances with. */
const MERCATOR_RADIUS_M = 6_378_137;

/** Metres per CSS pixel at `lat` for MapLibre's 512-pixel world at `zoom`. */
export function metresPerPixel(lat: number, zoom: number): number {
  return (2 * Math.PI * MERCATOR_RADIUS_M * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** zoom);
}

export interface Key {
  from: [number, number];
  to: [number, number];
  fromAt: EpochMs;
  /** Equal to fromAt for a bus that stays where it is. */
  toAt: EpochMs;
  radiusFrom: number;
  radiusTo: number;
  heading: number | null;
  /** Renew the key by then; null: never (a fix does not move and its look does not change with time). */
  renewAt: EpochMs | null;
  /** Metres per second while the key lasts: how often a frame is worth drawing. */
  speedMps: number;
}

/** The key of an estimate from `t`. */
export function keyAt(e: Estimate, t: EpochMs): Key {
  const here = estimateAt(e, t);
  const from = mercator(here.lon, here.lat);
  if (e.basis === 'fix') return { from, to: from, fromAt: t, toAt: t, radiusFrom: here.radiusM, radiusTo: here.radiusM, heading: here.heading, renewAt: null, speedMps: 0 };
  const straight = straightUntil(e, t);
  const toAt = straight === null ? t : Math.min(straight, t + KEY_MAX_MS);
  const there = toAt > t ? estimateAt(e, toAt) : here;
  const renewAt = straight === null ? t + KEY_MAX_MS : toAt;
  const radiusAtRenew = estimateAt(e, renewAt).radiusM;
  return {
    from,
    to: toAt > t ? mercator(there.lon, there.lat) : from,
    fromAt: t,
    toAt: toAt > t ? toAt : renewAt,
    radiusFrom: here.radiusM,
    radiusTo: radiusAtRenew,
    heading: here.heading,
    renewAt,
    speedMps: toAt > t ? (e.motion?.speedMps ?? 0) : 0,
  };
}

// Ids for polylines, so a signature can tell "same motion along the same line" without comparing coordinates.
const lineIds = new WeakMap<object, number>();
let nextLineId = 1;
function lineId(line: object): number {
  let id = lineIds.get(line);
  if (id === undefined) {
    id = nextLineId++;
    lineIds.set(line, id);
  }
  return id;
}

/**
 * Everything that decides how a placed bus is drawn, as one string: equal signatures draw the same at every
 * instant, so the overlay writes a bus's instance again only when its signature changes (20 moved buses of
 * 10,000 are 20 small buffer writes).
 */
export function placementSignature(p: BusPlacement): string {
  const e = p.estimate;
  const m = e.motion;
  const where = m ? `${lineId(m.line)}:${m.fromM}:${m.fromAt}:${m.speedMps}:${m.toM}` : `${e.lon}:${e.lat}:${e.heading}`;
  const r = e.radius.kind === 'growing' ? `${e.radius.baseM}:${e.radius.growthMps}:${e.radius.fromAt}` : `${e.radius.startAt}:${e.radius.endAt}`;
  return `${e.basis}|${where}|${r}|${e.fix?.gpsAt ?? ''}|${p.stale ? 1 : 0}|${p.cls}|${p.label}`;
}

/** The shortest step worth a new frame, in CSS pixels: finer motion than this does not show. */
export const FRAME_STEP_PX = 0.5;
export const MIN_FRAME_MS = 1000 / 30;
export const MAX_FRAME_MS = 1000;

/**
 * How long to wait before the next frame so that the fastest bus on screen moves about FRAME_STEP_PX: at
 * zoom 13 a bus at 5 m/s moves one pixel in 3 s, and drawing 60 frames a second would be wasted work.
 */
export function frameIntervalMs(fastestMps: number, mPerPx: number): number | null {
  if (!(fastestMps > 0)) return null;
  const pxPerS = fastestMps / mPerPx;
  return Math.min(MAX_FRAME_MS, Math.max(MIN_FRAME_MS, (FRAME_STEP_PX / pxPerS) * 1000));
}
