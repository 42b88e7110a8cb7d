import 'server-only';
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { LiveSnapshot } from '@/lib/model';

// Freshness, read from the snapshot every viewer is served: the buses by state, and the age of each tracked
// bus's fix. No bus or trip id is ever a label.

/** What `fleetmap_buses{state}` counts; on_trip overlaps the other three, which split the fleet. */
export const BUS_STATES = ['on_trip', 'located', 'stale', 'no_fix'] as const;
export type BusState = (typeof BUS_STATES)[number];

// From a fix a few seconds old to half an hour: the feed aims at B/(2L), tens of seconds on a typical key.
const AGE_BUCKETS_S = [5, 10, 15, 30, 45, 60, 90, 120, 180, 300, 600, 1800];

/** Buses by state at `now`: located with a fix no older than `staleAfterS`, stale beyond it, no fix without one. */
export function busStates(snapshot: Pick<LiveSnapshot, 'vehicles'>, now: number, staleAfterS: number): Record<BusState, number> {
  const counts: Record<BusState, number> = { on_trip: 0, located: 0, stale: 0, no_fix: 0 };
  const staleBefore = now - staleAfterS * 1000;
  for (const v of snapshot.vehicles) {
    if (v.trip) counts.on_trip++;
    if (v.lat === null || v.lon === null) counts.no_fix++;
    else if (v.gpsAt === null || v.gpsAt < staleBefore) counts.stale++;
    else counts.located++;
  }
  return counts;
}

export function fleetMetrics(registry: Registry, snapshot: () => LiveSnapshot, staleAfterS: number, now: () => number = Date.now): void {
  new Gauge({
    name: 'fleetmap_buses',
    help: 'Buses of the snapshot by state: located (fix within STALE_AFTER_S), stale, no_fix; on_trip overlaps them.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const counts = busStates(snapshot(), now(), staleAfterS);
      for (const state of BUS_STATES) this.set({ state }, counts[state]);
    },
  });
  // A scrape that finds the version it observed last adds nothing: every bus-sample counts once.
  let observed = '';
  new Histogram({
    name: 'fleetmap_location_age_seconds',
    help: 'Age of the fix (now minus its GPS time) of each located bus on a trip, observed once per snapshot version a scrape finds.',
    buckets: AGE_BUCKETS_S,
    registers: [registry],
    collect() {
      const s = snapshot();
      const tag = `${s.epoch}-${s.version}`;
      if (tag === observed) return;
      observed = tag;
      const at = now();
      for (const v of s.vehicles) if (v.trip && v.gpsAt !== null && v.lat !== null) this.observe(Math.max(0, (at - v.gpsAt) / 1000));
    },
  });
}
