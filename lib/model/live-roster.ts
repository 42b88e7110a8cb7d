// The roster of /api/live's compact form (`?shape=roster`, docs/live-compact.md): what belongs to each bus and does
// not change within a day (its plate, name and internal code), served apart from the live answer, which refers to it
// by its version and leaves those columns out. The browser fetches it once per version and keeps it; a full answer
// naming another version makes it ask again. The version is the server's (a hash of the rows: lib/http/live-roster.ts).
// Pure functions, shared by the server's encoder and the browser's decoder.
import { decodeCodes, decodeStrings, encodeSameRests, encodeStrings, type CompactSameRests, type CompactStrings } from './compact-strings';
import type { Vehicle } from './live';

/** The value of `shape` in every roster answer. */
export const LIVE_ROSTER_SHAPE = 'roster-1';

/** The roster as sent: one row per bus of the live snapshot (of the viewer's routes, for a wall token), sorted by busId. */
export interface CompactRoster {
  shape: typeof LIVE_ROSTER_SHAPE;
  /** The roster's version: a full compact answer names the one its buses' names are in. */
  version: string;
  /** busId, as its difference from the row before (the first from 0). */
  id: number[];
  /** Plate, bus name, internal code (string columns, lib/model/compact-strings.ts). */
  p: CompactStrings;
  n: CompactStrings;
  c: CompactStrings | CompactSameRests;
}

export type BusNames = Pick<Vehicle, 'plateNumber' | 'busName' | 'internalCode'>;

/** The roster as the browser holds it: columns by row, busIds ascending. */
export interface LiveRoster {
  version: string;
  busIds: number[];
  names: BusNames[];
}

/** What a roster's version is made from: its rows, as one string (the same rows, the same string). */
export function rosterContent(vehicles: readonly Vehicle[]): string {
  return JSON.stringify(vehicles.map((v) => [v.busId, v.plateNumber, v.busName, v.internalCode]));
}

/** The roster of `vehicles` (sorted by busId, as a snapshot holds them) under `version`. */
export function encodeRoster(vehicles: readonly Vehicle[], version: string): CompactRoster {
  const n = encodeStrings(vehicles.map((v) => v.busName));
  const id: number[] = new Array(vehicles.length);
  let prev = 0;
  vehicles.forEach((v, i) => {
    id[i] = v.busId - prev;
    prev = v.busId;
  });
  return { shape: LIVE_ROSTER_SHAPE, version, id, p: encodeStrings(vehicles.map((v) => v.plateNumber)), n, c: encodeSameRests(encodeStrings(vehicles.map((v) => v.internalCode)), n) };
}

export function decodeRoster(a: CompactRoster): LiveRoster {
  const plates = decodeStrings(a.p);
  const names = decodeStrings(a.n);
  const codes = decodeCodes(a.c, a.n);
  const busIds: number[] = new Array(a.id.length);
  const out: BusNames[] = new Array(a.id.length);
  let busId = 0;
  for (let i = 0; i < a.id.length; i++) {
    busId += a.id[i]!;
    busIds[i] = busId;
    out[i] = { plateNumber: plates[i]!, busName: names[i]!, internalCode: codes[i]! };
  }
  return { version: a.version, busIds, names: out };
}
