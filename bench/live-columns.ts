// What /api/live's compact answers weigh at a fleet size, column by column, on a snapshot made from the simulator
// (bench/support/sim-live-snapshot.ts) without running the app, or on one captured from a running app (the JSON form's
// full answer, saved from /api/live): the full answer and the roster it names, raw and
// gzipped at the server's level, the JSON form's for comparison, and each column's share of the full answer's gzip
// (the bytes saved by leaving that column out, gzipped again). A tool for choosing what to make smaller, not a
// benchmark (it writes nothing): the scale benchmark measures the running app's own answers.
// Run: npx tsx --conditions=react-server bench/live-columns.ts [buses] [placed share, 0..1]
//      npx tsx --conditions=react-server bench/live-columns.ts --from=<saved /api/live answer>
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { encodeCompactFull, encodeRoster, type LiveFull, type LiveSnapshot } from '../lib/model';
import { simulatedLiveSnapshot } from './support/sim-live-snapshot';

/** The server's gzip level (lib/encoding/body-encoding.ts). */
const GZIP_LEVEL = 6;
const gz = (x: unknown) => gzipSync(JSON.stringify(x), { level: GZIP_LEVEL }).length;
const raw = (x: unknown) => Buffer.byteLength(JSON.stringify(x));

function snapshot(args: string[]): LiveSnapshot {
  const from = args.find((a) => a.startsWith('--from='));
  if (from) {
    const { kind: _kind, ...s } = JSON.parse(readFileSync(from.slice('--from='.length), 'utf8')) as LiveFull;
    return s;
  }
  const buses = Number(args[0] ?? 10_000);
  const placedShare = args[1] === undefined ? undefined : Number(args[1]);
  // 8 a.m. on a Wednesday in New York: the morning peak.
  return simulatedLiveSnapshot({ buses, at: Date.parse('2026-03-04T13:00:00Z'), placedShare });
}

const s = snapshot(process.argv.slice(2));
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
