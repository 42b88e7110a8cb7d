// Small planar geometry kit for preparing the offline basemap at development time: clip rings to a box,
// simplify, round, and decode TopoJSON. Pure functions, no I/O, so the scripts stay thin and this is testable.
// Coordinates are [lon, lat] in degrees; boxes are [minLon, minLat, maxLon, maxLat].

const EARTH_METRES_PER_DEGREE = 111_320;

/** Grows a box by `km` on every side, converting to degrees at the box's middle latitude. */
export function padBox(box, km) {
  const [minX, minY, maxX, maxY] = box;
  const midLat = ((minY + maxY) / 2) * (Math.PI / 180);
  const dLat = (km * 1000) / EARTH_METRES_PER_DEGREE;
  const dLon = (km * 1000) / (EARTH_METRES_PER_DEGREE * Math.cos(midLat));
  return [minX - dLon, minY - dLat, maxX + dLon, maxY + dLat];
}

/** Throws unless `value` is a [minLon, minLat, maxLon, maxLat] box with min < max. */
export function assertBox(value, what) {
  const ok =
    Array.isArray(value) &&
    value.length === 4 &&
    value.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    value[0] < value[2] &&
    value[1] < value[3] &&
    value[0] >= -180 &&
    value[2] <= 180 &&
    value[1] >= -90 &&
    value[3] <= 90;
  if (!ok) throw new Error(`${what}: expected [minLon, minLat, maxLon, maxLat] with min < max, got ${JSON.stringify(value)}`);
  return value;
}

export function ringBox(ring) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of ring) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

export function boxesIntersect(a, b) {
  return a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
}

// One Sutherland–Hodgman pass against one box edge. `inside` and `cross` describe the edge.
function clipAgainstEdge(points, inside, cross) {
  const out = [];
  const n = points.length;
  for (let i = 0; i < n; i++) {
    const cur = points[i];
    const prev = points[(i + n - 1) % n];
    const curIn = inside(cur);
    const prevIn = inside(prev);
    if (curIn) {
      if (!prevIn) out.push(cross(prev, cur));
      out.push(cur);
    } else if (prevIn) {
      out.push(cross(prev, cur));
    }
  }
  return out;
}

const atX = (x) => (a, b) => [x, a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0])];
const atY = (y) => (a, b) => [a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]), y];

/**
 * Clips a closed ring to a box (Sutherland–Hodgman). A concave ring may come back with zero-width
 * spurs along the box edge: they enclose no area, so a fill renders them as nothing.
 * Returns a closed ring, or null when nothing of it lies inside.
 */
export function clipRingToBox(ring, box) {
  const [minX, minY, maxX, maxY] = box;
  let pts = openRing(ring);
  pts = clipAgainstEdge(pts, (p) => p[0] >= minX, atX(minX));
  if (pts.length) pts = clipAgainstEdge(pts, (p) => p[0] <= maxX, atX(maxX));
  if (pts.length) pts = clipAgainstEdge(pts, (p) => p[1] >= minY, atY(minY));
  if (pts.length) pts = clipAgainstEdge(pts, (p) => p[1] <= maxY, atY(maxY));
  if (pts.length < 3) return null;
  return closeRing(pts);
}

function openRing(ring) {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return first && last && first[0] === last[0] && first[1] === last[1] ? ring.slice(0, -1) : ring.slice();
}

function closeRing(points) {
  return [...points, points[0]];
}

/** Shoelace area in squared coordinate units; sign gives the winding (positive = counter-clockwise). */
export function signedArea(ring, xScale = 1) {
  let sum = 0;
  for (let i = 0, n = ring.length; i < n - 1; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[i + 1];
    sum += x1 * xScale * y2 - x2 * xScale * y1;
  }
  return sum / 2;
}

function segmentDistance(p, a, b, xScale) {
  const px = p[0] * xScale;
  const ax = a[0] * xScale;
  const bx = b[0] * xScale;
  const dx = bx - ax;
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (p[1] - a[1]) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  const ex = px - (ax + t * dx);
  const ey = p[1] - (a[1] + t * dy);
  return Math.sqrt(ex * ex + ey * ey);
}

// Douglas–Peucker on an open path, iterative so long coastlines cannot overflow the stack.
function simplifyPath(points, tolerance, xScale) {
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [first, last] = stack.pop();
    let maxDist = 0;
    let index = -1;
    for (let i = first + 1; i < last; i++) {
      const d = segmentDistance(points[i], points[first], points[last], xScale);
      if (d > maxDist) {
        maxDist = d;
        index = i;
      }
    }
    if (index !== -1 && maxDist > tolerance) {
      keep[index] = 1;
      stack.push([first, index], [index, last]);
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}

/** Douglas–Peucker for an open line; `xScale` (cos of the latitude) makes the tolerance isotropic in metres. */
export function simplifyLine(points, tolerance, xScale = 1) {
  return points.length < 3 ? points.slice() : simplifyPath(points, tolerance, xScale);
}

/**
 * Douglas–Peucker for a closed ring: split at the point farthest from the start so both halves are
 * open paths with fixed ends. `xScale` (cos of the latitude) makes the tolerance isotropic in metres.
 */
export function simplifyRing(ring, tolerance, xScale = 1) {
  const pts = openRing(ring);
  if (pts.length < 4) return closeRing(pts);
  let far = 0;
  let farDist = -1;
  for (let i = 1; i < pts.length; i++) {
    const dx = (pts[i][0] - pts[0][0]) * xScale;
    const dy = pts[i][1] - pts[0][1];
    const d = dx * dx + dy * dy;
    if (d > farDist) {
      farDist = d;
      far = i;
    }
  }
  const firstHalf = simplifyPath(pts.slice(0, far + 1), tolerance, xScale);
  const secondHalf = simplifyPath([...pts.slice(far), pts[0]], tolerance, xScale);
  return [...firstHalf, ...secondHalf.slice(1)];
}

/** Rounds to `decimals` and drops points that became equal to their predecessor. */
export function roundRing(ring, decimals) {
  const f = 10 ** decimals;
  const out = [];
  for (const [x, y] of ring) {
    const p = [Math.round(x * f) / f, Math.round(y * f) / f];
    const prev = out[out.length - 1];
    if (!prev || prev[0] !== p[0] || prev[1] !== p[1]) out.push(p);
  }
  return out;
}

/**
 * Simplify and round a ring; null when it no longer encloses `minArea` (squared degrees of latitude, x scaled
 * by `xScale`) or has too few points to be a ring.
 */
export function simplifyAndRound(ring, { tolerance, decimals, minArea = 0, xScale = 1 }) {
  const r = roundRing(simplifyRing(ring, tolerance, xScale), decimals);
  if (r.length < 4) return null;
  if (Math.abs(signedArea(r, xScale)) <= minArea) return null;
  return r;
}

/** Even-odd ray cast; points exactly on an edge may go either way, so callers avoid them. */
export function pointInRing([x, y], ring) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function onBoxEdge([x, y], box) {
  return box !== null && (x === box[0] || x === box[2] || y === box[1] || y === box[3]);
}

/**
 * Groups loose rings into polygons by containment: a ring inside an even number of others is an outer ring,
 * inside an odd number a hole of the smallest ring around it. Orientation follows RFC 7946 (outer
 * counter-clockwise, holes clockwise), which MapLibre needs to tell holes from outers once polygons are cut into
 * tiles. Source polygons are not trusted to nest their holes correctly: @geo-maps lists lakes of the mainland
 * as holes of Long Island, which a renderer turns into stray triangles. Clipped rings share the box edge, so a
 * ring is placed by one of its vertices off that edge.
 */
export function nestRings(rings, box = null) {
  const items = rings.map((ring) => ({
    ring,
    bounds: ringBox(ring),
    area: Math.abs(signedArea(ring)),
    probe: ring.find((p) => !onBoxEdge(p, box)) ?? null,
  }));
  const containers = items.map((a) =>
    a.probe === null
      ? []
      : items.filter((b) => b !== a && b.area > a.area && boxesIntersect(a.bounds, b.bounds) && pointInRing(a.probe, b.ring)),
  );
  const polygons = new Map();
  items.forEach((item, i) => {
    const around = containers[i] ?? [];
    if (around.length % 2 === 0) polygons.set(item, [orient(item.ring, true)]);
  });
  items.forEach((item, i) => {
    const around = containers[i] ?? [];
    if (around.length % 2 === 0) return;
    // The smallest container is the innermost one, whose depth is one less: the outer this hole belongs to.
    const parent = around.reduce((best, c) => (c.area < best.area ? c : best));
    polygons.get(parent)?.push(orient(item.ring, false));
  });
  return [...polygons.values()];
}

function orient(ring, counterClockwise) {
  return signedArea(ring) > 0 === counterClockwise ? ring : ring.slice().reverse();
}

/**
 * Cuts a ring that crosses the antimeridian (a longitude jump over 180°) into planar pieces within
 * [-180, 180]. Spherical data (world-atlas) lets Fiji, Chukotka and Wrangel Island wrap; drawn flat, such a ring
 * becomes a band around the whole world. A ring whose jumps do not cancel goes round a pole (Antarctica): it is
 * closed along that pole's latitude before cutting. Rings that do not cross come back as they are.
 */
export function splitAtAntimeridian(ring) {
  let offset = 0;
  const unwrapped = [ring[0]];
  for (let i = 1; i < ring.length; i++) {
    const d = ring[i][0] - ring[i - 1][0];
    if (d > 180) offset -= 360;
    else if (d < -180) offset += 360;
    unwrapped.push([ring[i][0] + offset, ring[i][1]]);
  }
  if (offset === 0 && unwrapped.every((p, i) => p[0] === ring[i][0])) return [ring];
  let closed = unwrapped;
  if (offset !== 0) {
    const meanLat = ring.reduce((sum, p) => sum + p[1], 0) / ring.length;
    const pole = meanLat < 0 ? -90 : 90;
    const last = unwrapped[unwrapped.length - 1];
    closed = [...unwrapped.slice(0, -1), [last[0], last[1]], [last[0], pole], [unwrapped[0][0], pole], unwrapped[0]];
  }
  const [minX, , maxX] = ringBox(closed);
  const pieces = [];
  for (let k = Math.floor((minX + 180) / 360); k * 360 - 180 < maxX; k++) {
    const piece = clipRingToBox(closed, [k * 360 - 180, -90, k * 360 + 180, 90]);
    if (piece) pieces.push(piece.map(([x, y]) => [x - k * 360, y]));
  }
  return pieces;
}

/**
 * Every ring of the given Polygon/MultiPolygon geometries, cut at the antimeridian, clipped to `box` when one is given, re-nested
 * (see nestRings), simplified and rounded. A hole that vanishes is dropped; an outer that vanishes drops its holes.
 */
export function preparePolygons(geometries, options) {
  const box = options.box ?? null;
  const rings = [];
  for (const geometry of geometries) {
    const list = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : null;
    if (!list) throw new Error(`expected Polygon or MultiPolygon geometry, got ${geometry.type}`);
    for (const polygon of list) {
      for (const ring of polygon) {
        if (ring.length < 4) continue;
        for (const piece of splitAtAntimeridian(ring)) {
          if (!box) rings.push(piece);
          else if (boxesIntersect(ringBox(piece), box)) {
            const clipped = clipRingToBox(piece, box);
            if (clipped) rings.push(clipped);
          }
        }
      }
    }
  }
  const polygons = [];
  for (const [outer, ...holes] of nestRings(rings, box)) {
    const kept = simplifyAndRound(outer, options);
    if (!kept) continue;
    polygons.push([kept, ...holes.map((h) => simplifyAndRound(h, options)).filter((h) => h !== null)]);
  }
  return polygons;
}

/** Absolute coordinates of every arc, undoing TopoJSON quantization and delta encoding. */
export function decodeArcs(topology) {
  const t = topology.transform;
  return topology.arcs.map((arc) => {
    if (!t) return arc.map(([x, y]) => [x, y]);
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]];
    });
  });
}

function stitchRing(arcIndices, arcs) {
  const ring = [];
  for (const index of arcIndices) {
    const arc = index < 0 ? arcs[~index]?.slice().reverse() : arcs[index];
    if (!arc) throw new Error(`TopoJSON ring references missing arc ${index}`);
    // Consecutive arcs share their joining point; keep it once.
    for (let k = ring.length ? 1 : 0; k < arc.length; k++) ring.push(arc[k]);
  }
  return ring;
}

/** The polygon geometries of one TopoJSON object as GeoJSON geometries (Polygon and MultiPolygon only). */
export function topologyPolygons(topology, objectName) {
  const object = topology.objects?.[objectName];
  if (!object) throw new Error(`TopoJSON has no object "${objectName}" (has: ${Object.keys(topology.objects ?? {}).join(', ')})`);
  const arcs = decodeArcs(topology);
  const out = [];
  const visit = (g) => {
    if (g.type === 'GeometryCollection') g.geometries.forEach(visit);
    else if (g.type === 'Polygon') out.push({ type: 'Polygon', coordinates: g.arcs.map((r) => stitchRing(r, arcs)) });
    else if (g.type === 'MultiPolygon') out.push({ type: 'MultiPolygon', coordinates: g.arcs.map((p) => p.map((r) => stitchRing(r, arcs))) });
    else if (g.type !== null) throw new Error(`unexpected TopoJSON geometry type ${g.type} in "${objectName}"`);
  };
  visit(object);
  return out;
}

export function countPoints(polygons) {
  return polygons.reduce((n, rings) => n + rings.reduce((m, r) => m + r.length, 0), 0);
}
