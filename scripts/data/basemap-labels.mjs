// The offline basemap's street skeleton and place names, as pure functions (the scripts basemap-streets.mjs and
// basemap-places.mjs only read and write files around them, so this is what the tests exercise).
//
// Streets: a bus network knows which street each stretch of route runs on, because stops are named after
// corners ("MADISON AV/E 72 ST"). Two consecutive stops that share a street put the shape between them on it.
// Places: GeoNames' populated places (boroughs, neighbourhoods, towns) with their population, ranked for labels.
import { simplifyLine } from './basemap-geometry.mjs';

// Cutting at the stops adds a vertex on the shape at every stop; 1 m drops those and keeps every corner.
const STREET_TOLERANCE_M = 1;
const METRES_PER_DEGREE = 111_320;

/** Words kept upper-case when a street name is title-cased (initialisms, not words). */
const INITIALISMS = new Set(['FDR', 'JFK', 'US', 'NY', 'NJ', 'MTA', 'CUNY', 'SUNY', 'NYCHA', 'LGA', 'II', 'III']);

/** The parts of a stop name that name streets: "MADISON AV/E 72 ST" → ["MADISON AV", "E 72 ST"]. */
export function streetParts(stopName) {
  return String(stopName)
    .split('/')
    .map((p) => p.replace(/\s+/g, ' ').trim().toUpperCase())
    .filter((p) => p.length > 0);
}

/**
 * The street two consecutive stops share, or null: the first street of `a` that `b` names too. A stretch
 * between stops on different streets turns a corner and stays unnamed rather than guessed.
 */
export function sharedStreet(a, b) {
  const other = new Set(streetParts(b));
  return streetParts(a).find((p) => other.has(p)) ?? null;
}

/** "W 125 ST" → "W 125 St", "FDR DR" → "FDR Dr": how a street sign reads, not how a timetable shouts. */
export function streetLabel(name) {
  return name
    .split(' ')
    .filter(Boolean)
    .map((w) => (INITIALISMS.has(w) || /\d/.test(w) ? w : w.charAt(0) + w.slice(1).toLowerCase()))
    .join(' ');
}

/**
 * Where `point` projects onto `line` at or after segment `from` (planar, x scaled by cos(latitude)):
 * { index, t } with the point on segment index..index+1 at fraction t. Searching forward keeps a route that
 * passes the same corner twice (a loop) in stop order.
 */
export function locateOnLine(line, point, from = 0) {
  const xScale = Math.cos((point[1] * Math.PI) / 180);
  let best = { index: from, t: 0, d: Infinity };
  for (let i = Math.max(0, from); i < line.length - 1; i++) {
    const [ax, ay] = line[i];
    const [bx, by] = line[i + 1];
    const dx = (bx - ax) * xScale;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const px = (point[0] - ax) * xScale;
    const py = point[1] - ay;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
    const ex = px - t * dx;
    const ey = py - t * dy;
    const d = ex * ex + ey * ey;
    if (d < best.d) best = { index: i, t, d };
  }
  return { index: best.index, t: best.t };
}

function pointAt(line, { index, t }) {
  const a = line[index];
  const b = line[Math.min(index + 1, line.length - 1)];
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

/** The part of `line` between two located points (the second at or after the first). */
export function sliceBetween(line, from, to) {
  const out = [pointAt(line, from)];
  for (let i = from.index + 1; i <= to.index; i++) out.push(line[i]);
  out.push(pointAt(line, to));
  return out.filter((p, i) => i === 0 || p[0] !== out[i - 1][0] || p[1] !== out[i - 1][1]);
}

function roundLine(line, decimals) {
  const f = 10 ** decimals;
  return line.map(([x, y]) => [Math.round(x * f) / f, Math.round(y * f) / f]);
}

/**
 * The street skeleton of a network: every route direction's shape cut at its stops, each piece named after
 * the street its two stops share (or unnamed), consecutive pieces on the same street joined into one line.
 * Lines drawn by several routes are kept once. `directions`: [{ shape: [[lon, lat]...], stops: [{ name, lon, lat }...] }].
 */
export function streetSkeleton(directions, { decimals = 5 } = {}) {
  const seen = new Set();
  const features = [];
  const emit = (street, line) => {
    if (line.length < 2) return;
    const xScale = Math.cos((line[0][1] * Math.PI) / 180);
    const simplified = simplifyLine(line, STREET_TOLERANCE_M / METRES_PER_DEGREE, xScale);
    const piece = roundLine(simplified, decimals).filter((p, i, all) => i === 0 || p[0] !== all[i - 1][0] || p[1] !== all[i - 1][1]);
    if (piece.length < 2) return;
    // The same line in the other direction or on another route draws the same street.
    const forward = JSON.stringify(piece);
    const backward = JSON.stringify([...piece].reverse());
    const key = `${street}|${forward < backward ? forward : backward}`;
    if (seen.has(key)) return;
    seen.add(key);
    features.push({
      type: 'Feature',
      properties: street ? { kind: 'street', name: streetLabel(street) } : { kind: 'street' },
      geometry: { type: 'LineString', coordinates: piece },
    });
  };
  for (const { shape, stops } of directions) {
    if (shape.length < 2 || stops.length < 2) continue;
    let prev = locateOnLine(shape, [stops[0].lon, stops[0].lat]);
    let run = { street: null, line: [] };
    for (let i = 1; i < stops.length; i++) {
      const here = locateOnLine(shape, [stops[i].lon, stops[i].lat], prev.index);
      const piece = sliceBetween(shape, prev, here);
      prev = here;
      const street = sharedStreet(stops[i - 1].name, stops[i].name);
      if (street === run.street && run.line.length) run.line.push(...piece.slice(1));
      else {
        emit(run.street, run.line);
        run = { street, line: piece };
      }
    }
    emit(run.street, run.line);
  }
  return features;
}

/**
 * Labels of populated places inside `box` ([minLon, minLat, maxLon, maxLat]), largest first, each with a
 * `rank`: 1 for a city or borough (a million people or more), 2 for a large neighbourhood or town (50,000 or
 * more), 3 for the rest. `places`: [{ name, population, lon, lat }].
 */
export function placeLabels(places, box) {
  const [minX, minY, maxX, maxY] = box;
  return places
    .filter((p) => p.name && p.lon >= minX && p.lon <= maxX && p.lat >= minY && p.lat <= maxY)
    .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name))
    .map((p) => ({
      type: 'Feature',
      properties: { kind: 'place', name: p.name, rank: p.population >= 1_000_000 ? 1 : p.population >= 50_000 ? 2 : 3, population: p.population },
      geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
    }));
}
