// What /api/live's compact answers weigh at a fleet size, column by column, on a snapshot made from the simulator
// (bench/support/sim-live-snapshot.ts) without running the app: the full answer and the roster it names, raw and
// gzipped at the server's level, the JSON form's for comparison, and each column's share of the full answer's gzip
// (the bytes saved by leaving that column out, gzipped again). A tool for choosing what to make smaller, not a
// benchmark (it writes nothing): the scale benchmark measures the running app's own answers.
// Run: npx tsx --conditions=react-server bench/live-columns.ts [buses] [placed share, 0..1]
import { gzipSync } from 'node:zlib';
import { encodeCompactFull, encodeRoster } from '../lib/model';
import { simulatedLiveSnapshot } from './support/sim-live-snapshot';

/** The server's gzip level (lib/encoding/body-encoding.ts). */
const GZIP_LEVEL = 6;
const gz = (x: unknown) => gzipSync(JSON.stringify(x), { level: GZIP_LEVEL }).length;
const raw = (x: unknown) => Buffer.byteLength(JSON.stringify(x));

const buses = Number(process.argv[2] ?? 10_000);
const placedShare = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
// 8 a.m. on a Wednesday in New York: the morning peak.
const at = Date.parse('2026-03-04T13:00:00Z');
const s = simulatedLiveSnapshot({ buses, at, placedShare });
const placed = s.vehicles.filter((v) => v.lat !== null).length;
console.log(`${s.vehicles.length} buses, ${placed} placed (${((100 * placed) / s.vehicles.length).toFixed(1)} %), ${s.vehicles.filter((v) => v.trip).length} on a trip, ${s.unpositionedTrips.length} trips unplaced`);
// The version is a 16-character hash on the server (lib/http/live-roster.ts).
const version = 'x'.repeat(16);
const full = encodeCompactFull(s, version);
const roster = encodeRoster(s.vehicles, version);
const json = { kind: 'full', ...s };
const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
console.log(`full answer: ${kB(raw(full))}, gzip ${kB(gz(full))}; roster: ${kB(raw(roster))}, gzip ${kB(gz(roster))}; JSON form: ${kB(raw(json))}, gzip ${kB(gz(json))}`);

const g = gz(full);
const without = (path: string[]): unknown => {
  const copy = structuredClone(full) as unknown as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
  delete at[path.at(-1)!];
  return copy;
};
const rows: [string, number][] = [];
for (const k of Object.keys(full.v)) if (k !== 'trips') rows.push([`v.${k}`, g - gz(without(['v', k]))]);
for (const k of Object.keys(full.v.trips)) rows.push([`v.trips.${k}`, g - gz(without(['v', 'trips', k]))]);
for (const k of ['u', 'r', 's', 'health']) rows.push([k, g - gz(without([k]))]);
rows.sort((a, b) => b[1] - a[1]);
console.log('column share of the full answer\'s gzip (bytes saved without it):');
for (const [k, d] of rows) console.log(`  ${k.padEnd(12)} ${String(d).padStart(7)}  ${((100 * d) / g).toFixed(1)} %`);
