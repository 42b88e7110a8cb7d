// Stateless hashing: every random choice of the simulator is a pure function of (seed, what, which), so any
// bus, trip or instant can be computed on its own, in any order, and comes out the same every time.

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit hash of a seed and a list of integers (values beyond 32 bits are folded in, not truncated). */
export function hashInts(seed: number, ...values: number[]): number {
  let h = mix((seed >>> 0) ^ 0x9e3779b9);
  for (const v of values) {
    h = mix(h ^ (v >>> 0));
    h = mix(h ^ (Math.floor(v / 4_294_967_296) >>> 0) ^ 0x27d4eb2f);
  }
  return h;
}

/** A uniform number in [0, 1) determined by the seed and the values. */
export function unit(seed: number, ...values: number[]): number {
  return hashInts(seed, ...values) / 4_294_967_296;
}

/** A sequential generator for the few places where a stream is natural (fault injection, shuffles). */
export function seededStream(seed: number): () => number {
  let state = hashInts(seed, 0x5eed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    return mix(state) / 4_294_967_296;
  };
}

/** Purposes of hashed choices; each keeps its own stream so adding one never reshuffles another. */
export const SALT = {
  departures: 1,
  departureJitter: 2,
  tripKind: 3,
  delayStart: 4,
  delayDrift: 5,
  incident: 6,
  incidentShape: 7,
  dwell: 8,
  gpsPeriod: 9,
  gpsLoss: 10,
  gpsNone: 11,
  noise: 12,
  fleetShuffle: 13,
  busModel: 14,
  spareCondition: 15,
  parking: 16,
  staleGps: 17,
  shortTurn: 18,
} as const;
