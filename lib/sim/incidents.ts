import { z } from 'zod';

// Incidents injected through the admin endpoint, to prove the exception rules end to end: a bus that breaks down,
// one whose GPS goes silent, one that leaves its route, a trip that runs with no bus. Each lasts a while in sim
// time and shows in /__admin/truth. The world (world.ts) asks this book what holds for a bus or a trip at an
// instant; with no incident it asks nothing (one size check on the hot paths).

export type IncidentKind = 'breakdown' | 'gps-silent' | 'off-route' | 'no-bus';
export const INCIDENT_KINDS: readonly IncidentKind[] = ['breakdown', 'gps-silent', 'off-route', 'no-bus'];

/** Longest incident: a day of sim time. */
const MAX_DURATION_S = 86_400;
/** Incidents kept (ended ones stay in the truth until pushed out by newer ones). */
const MAX_KEPT = 1_000;

const id = z.number().int().min(1);
const duration = z.number().positive().max(MAX_DURATION_S);

/** What POST /__admin/incidents accepts. With no busId (tripId for `no-bus`) the simulator picks one on a trip. */
export const incidentRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('breakdown'), busId: id.optional(), durationS: duration }),
  z.strictObject({ kind: z.literal('gps-silent'), busId: id.optional(), durationS: duration }),
  z.strictObject({ kind: z.literal('off-route'), busId: id.optional(), distanceM: z.number().positive().max(5_000), durationS: duration }),
  z.strictObject({ kind: z.literal('no-bus'), tripId: id.optional(), durationS: duration }),
]);
export type IncidentRequest = z.infer<typeof incidentRequestSchema>;

export interface Incident {
  /** 1, 2, … in the order they were made. */
  id: number;
  kind: IncidentKind;
  /** The bus it happens to (for `no-bus`, the bus the trip has in the timetable). */
  busId: number | null;
  /** The trip the bus ran when it began (for `no-bus`, the trip that loses its bus); null when the bus was off trip. */
  tripId: number | null;
  /** `off-route`: metres to the right of the bus's way. */
  distanceM: number | null;
  /** Sim time, epoch ms. */
  startAt: number;
  /** Sim time, epoch ms: planned end, or when it was ended early. */
  endAt: number;
}

export class IncidentBook {
  private all: Incident[] = [];
  private byBus = new Map<number, Incident[]>();
  private byTrip = new Map<number, Incident[]>();
  private nextId = 1;
  /** Bumped on every change: the world's per-second caches hold only for one version. */
  version = 0;

  get size(): number {
    return this.all.length;
  }

  add(i: Omit<Incident, 'id'>): Incident {
    const incident = { ...i, id: this.nextId++ };
    this.all.push(incident);
    if (this.all.length > MAX_KEPT) this.all.shift();
    this.reindex();
    return incident;
  }

  /** Ends an incident at `t` (no-op when it already ended); false for an unknown id. */
  end(id: number, t: number): Incident | null {
    const i = this.all.find((x) => x.id === id);
    if (!i) return null;
    if (i.endAt > t) i.endAt = Math.max(i.startAt, t);
    this.version++;
    return i;
  }

  /** Ends every incident at `t`. */
  endAll(t: number): void {
    for (const i of this.all) if (i.endAt > t) i.endAt = Math.max(i.startAt, t);
    this.version++;
  }

  list(): Incident[] {
    return this.all.map((i) => ({ ...i }));
  }

  /** The incident of this kind that holds for the bus at `t`, if any. */
  forBus(busId: number, kind: IncidentKind, t: number): Incident | null {
    const list = this.byBus.get(busId);
    if (!list) return null;
    for (const i of list) if (i.kind === kind && i.startAt <= t && t < i.endAt) return i;
    return null;
  }

  forTrip(tripId: number, kind: IncidentKind, t: number): Incident | null {
    const list = this.byTrip.get(tripId);
    if (!list) return null;
    for (const i of list) if (i.kind === kind && i.startAt <= t && t < i.endAt) return i;
    return null;
  }

  private reindex(): void {
    this.byBus = new Map();
    this.byTrip = new Map();
    for (const i of this.all) {
      if (i.busId !== null) (this.byBus.get(i.busId) ?? this.byBus.set(i.busId, []).get(i.busId)!).push(i);
      if (i.tripId !== null) (this.byTrip.get(i.tripId) ?? this.byTrip.set(i.tripId, []).get(i.tripId)!).push(i);
    }
    this.version++;
  }
}
