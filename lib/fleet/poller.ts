import 'server-only';
import type { AppConfig } from '@/lib/config';
import type { Paged } from '@/lib/model';
import { PartnerError, walkPages, type PageRequest, type PartnerClient, type PartnerResponse } from '@/lib/partner';
import type { Clock } from './clock';
import type { FeedEvents, TypedEmitter } from './events';
import type { FleetState } from './fleet-state';
import type { UpstreamGateway } from './gateway';
import type { Job, JobPicker, ListKind } from './job-picker';
import type { BusTrack } from './location-scheduler';
import type { Lookups } from './lookups';
import type { RateBudget } from './rate-budget';
import { shiftBusTimes, shiftTripTimes } from './times';

// The one loop that spends the poll lane: wait for a slot, let the job picker say what it is for, run it. List
// walks and route stops run in the loop; location requests run beside the next slots, a few at a time (the
// pacer already spaced their start). Answers go into the fleet state.

/** Location requests allowed in flight at once by default. */
export const MAX_LOCATIONS_IN_FLIGHT = 4;
/** With nothing to do, the loop looks again this much later (a list falls due, a key comes back). */
const IDLE_RECHECK_MS = 1_000;
/** After a bug of ours in the loop, this pause keeps a repeating one from spinning. */
const LOOP_ERROR_PAUSE_MS = 1_000;
/** A failing bus's wait doubles per failure up to 2^this slots (and never past its parked floor). */
const MAX_BACKOFF_DOUBLINGS = 20;

export interface PollerSources {
  clock: Clock;
  config: AppConfig['feed'];
  budget: RateBudget;
  gateway: UpstreamGateway;
  state: FleetState;
  picker: JobPicker;
  lookups: Lookups;
  maxInFlight: number;
  log: (line: Record<string, unknown>) => void;
  events: TypedEmitter<FeedEvents>;
  signal: AbortSignal;
}

export class Poller {
  private readonly inflight = new Set<Promise<void>>();
  private done: Promise<void> | null = null;

  constructor(private readonly s: PollerSources) {}

  start(): void {
    this.done ??= this.loop();
  }

  /** Resolves once the loop has ended (after the signal aborted) and every request in flight settled. */
  async stopped(): Promise<void> {
    await this.done;
    await Promise.allSettled([...this.inflight]);
  }

  private async loop(): Promise<void> {
    const { clock, budget, picker, signal } = this.s;
    while (!signal.aborted) {
      try {
        if (this.inflight.size >= this.s.maxInFlight) {
          await Promise.race(this.inflight);
          continue;
        }
        if (!picker.hasWork(clock.now(), this.inflight.size)) {
          await clock.sleep(IDLE_RECHECK_MS, signal);
          continue;
        }
        let job: Job | null = null;
        const granted = await budget.acquire(
          () => {
            job = picker.pick(clock.now());
            return job?.kind ?? null;
          },
          'poll',
          { signal },
        );
        if (!granted || !job) {
          await clock.sleep(budget.pollIntervalMs(), signal);
          continue;
        }
        picker.slotCount++;
        await this.run(job);
      } catch (e) {
        if (signal.aborted) break;
        // Upstream errors are handled where they happen; this is a bug of ours: say so and keep polling.
        this.s.log({ msg: 'feed loop error', error: e instanceof Error ? e.name : typeof e });
        await clock.sleep(LOOP_ERROR_PAUSE_MS, signal);
      }
    }
  }

  private async run(job: Job): Promise<void> {
    const now = this.s.clock.now();
    try {
      switch (job.kind) {
        case 'status':
          return await this.s.gateway.refreshStatus();
        case 'activeTrips':
        case 'listBuses':
        case 'listRoutes':
          this.s.picker.listStarted(job.kind, now);
          return await this.refreshList(job.kind);
        case 'routeStops':
          this.s.picker.stopsStarted(job.routeId, now);
          return await this.refreshStops(job.routeId);
        case 'busLocation':
          return this.startLocation(job.track);
      }
    } catch (e) {
      if (!(e instanceof PartnerError)) throw e;
      // Already recorded by the gateway; the next slot carries on.
    }
  }

  /** Location requests run alongside the next slots (up to maxInFlight); the pacer already spaced their start. */
  private startLocation(track: BusTrack): void {
    track.inFlight = true;
    const p: Promise<void> = this.refreshLocation(track).finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  /** The slot already granted pays for the first page; each further page waits for its own. */
  private pagePacer(kind: ListKind): () => Promise<void> {
    const { clock, budget, picker, signal } = this.s;
    let first = true;
    return async () => {
      if (first) {
        first = false;
        return;
      }
      // A long walk (a big fleet's bus list, or every list overdue after a fault) must not stop the positions:
      // every other slot goes to a location, a bus a viewer just opened first. Each still waits for its slot.
      let track: BusTrack | null = null;
      const pick = () => ((track = this.inflight.size < this.s.maxInFlight ? picker.pickLocation(clock.now()) : null) ? 'busLocation' : null);
      if (await budget.acquire(pick, 'poll', { signal })) {
        picker.slotCount++;
        this.startLocation(track!);
      }
      await budget.acquire(kind, 'poll', { signal });
    };
  }

  private async walk<T>(kind: ListKind, page: (c: PartnerClient, p: PageRequest) => Promise<PartnerResponse<Paged<T>>>) {
    const { gateway, state, picker } = this.s;
    const gen = state.tz.generation;
    const r = await walkPages((p) => gateway.call(kind, (c) => page(c, p)), { beforePage: this.pagePacer(kind) });
    picker.listWalked(kind, r.responses.length);
    return { items: r.items, shift: state.tz.shiftSince(gen) };
  }

  private async refreshList(kind: ListKind): Promise<void> {
    const { state, clock } = this.s;
    if (kind === 'activeTrips') {
      const { items, shift } = await this.walk(kind, (c, p) => c.activeTrips(p));
      const now = clock.now();
      state.applyTrips(shift ? items.map((t) => shiftTripTimes(t, shift)) : items, now);
      for (const trip of state.trips) {
        this.s.events.emit('observation', { type: 'trip-delay', tripId: trip.id, busId: trip.busId, routeId: trip.routeId, seenAt: now, status: trip.status, delayMinutes: trip.delayMinutes });
      }
    } else if (kind === 'listBuses') {
      const { items, shift } = await this.walk(kind, (c, p) => c.listBuses(p));
      state.applyBuses(shift ? items.map((b) => shiftBusTimes(b, shift)) : items, clock.now());
    } else {
      const { items } = await this.walk(kind, (c, p) => c.listRoutes(p));
      state.applyRoutes(items, clock.now());
    }
  }

  private async refreshStops(routeId: number): Promise<void> {
    const res = await this.s.gateway.call('routeStops', (c) => c.routeStops(routeId));
    this.s.lookups.putStops(routeId, res.data, this.s.clock.now());
  }

  private async refreshLocation(track: BusTrack): Promise<void> {
    const { gateway, state, clock, config, budget } = this.s;
    const gen = state.tz.generation;
    try {
      const { data: loc } = await gateway.call('busLocation', (c) => c.busLocation(track.busId));
      const now = clock.now();
      state.applyLocation(track, loc, gen, now);
      if (track.lat !== null && track.lon !== null) {
        const { busId, fetchedAt, gpsAt, lat, lon, speedKmh, heading, accuracy } = track;
        this.s.events.emit('observation', { type: 'location', busId, fetchedAt: fetchedAt!, gpsAt, lat, lon, speedKmh, heading, accuracy });
      }
    } catch (e) {
      if (!(e instanceof PartnerError)) throw e;
      const now = clock.now();
      track.lastError = { at: now, status: e.status, message: e.message };
      // fetchedAt keeps the last fetch that brought data, so the bus shows its true age. Its next try waits:
      // a bus the upstream does not know until its parked floor, any other failure doubling from one slot,
      // so a bus whose request always fails cannot take every slot from the rest of the fleet.
      track.failures++;
      const floorMs = config.parkedFloorMs;
      track.retryAt = now + (e.status === 404 ? floorMs : Math.min(floorMs, budget.pollIntervalMs() * 2 ** Math.min(track.failures, MAX_BACKOFF_DOUBLINGS)));
    } finally {
      track.inFlight = false;
    }
  }
}
