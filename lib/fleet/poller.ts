import 'server-only';
import type { AppConfig } from '@/lib/config';
import type { Paged, Trip } from '@/lib/model';
import { PartnerError, walkPages, type PageRequest, type PartnerClient, type PartnerResponse } from '@/lib/partner';
import type { Clock } from './clock';
import type { FeedEvents, TypedEmitter } from './events';
import type { FinalTrips } from './final-trips';
import type { FleetState } from './fleet-state';
import type { UpstreamGateway } from './gateway';
import type { Job, JobPicker, ListKind } from './job-picker';
import type { BusTrack } from './location-scheduler';
import type { Lookups } from './lookups';
import type { RateBudget } from './rate-budget';
import { shiftBusTimes, shiftTripTimes } from './times';

// The one loop that spends the poll lane: wait for a slot, let the job picker say what it is for, run it. List
// walks and route stops run in the loop; location and final-trip requests run beside the next slots, a few at a
// time (the pacer already spaced their start). Answers go into the fleet state, and out as the feed's events: a
// new fix, a complete trips walk, a trip's final answer (the gateway announces every request itself).

/** Location requests allowed in flight at once by default. */
export const MAX_LOCATIONS_IN_FLIGHT = 4;
/** With nothing to do, the loop looks again this much later (a list falls due, a key comes back). */
const IDLE_RECHECK_MS = 1_000;
/** After a bug of ours in the loop, this pause keeps a repeating one from spinning. */
const LOOP_ERROR_PAUSE_MS = 1_000;
/** A failing bus's wait doubles per failure up to 2^this slots (and never past its parked floor). */
const MAX_BACKOFF_DOUBLINGS = 20;
const LIST_PATHS: Record<ListKind, string> = { activeTrips: '/trips/active', listBuses: '/buses', listRoutes: '/routes' };

export interface PollerSources {
  clock: Clock;
  config: AppConfig['feed'];
  budget: RateBudget;
  gateway: UpstreamGateway;
  state: FleetState;
  picker: JobPicker;
  lookups: Lookups;
  finalTrips: FinalTrips;
  maxInFlight: number;
  log: (line: Record<string, unknown>) => void;
  events: TypedEmitter<FeedEvents>;
  signal: AbortSignal;
  /** False while another instance polls (this feed follows it): the loop sends nothing and waits. */
  active?: () => boolean;
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
        if (this.s.active && !this.s.active()) {
          await clock.sleep(IDLE_RECHECK_MS, signal);
          continue;
        }
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
        case 'finalTrip':
          return this.runBeside(this.refreshFinalTrip(job.tripId));
      }
    } catch (e) {
      if (!(e instanceof PartnerError)) throw e;
      // Already recorded by the gateway; the next slot carries on.
    }
  }

  /** Location requests run alongside the next slots (up to maxInFlight); the pacer already spaced their start. */
  private startLocation(track: BusTrack): void {
    track.inFlight = true;
    this.runBeside(this.refreshLocation(track));
  }

  private runBeside(request: Promise<void>): void {
    const p: Promise<void> = request.finally(() => this.inflight.delete(p));
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
      picker.listPageSent();
    };
  }

  /** Every page of a list, or null when its pages ran out early: then the last complete list stays. */
  private async walk<T>(kind: ListKind, page: (c: PartnerClient, p: PageRequest) => Promise<PartnerResponse<Paged<T>>>) {
    const { gateway, state, picker } = this.s;
    const gen = state.tz.generation;
    const r = await walkPages((p) => gateway.call(kind, { lane: 'poll' }, (c) => page(c, p)), { beforePage: this.pagePacer(kind) });
    picker.listWalked(kind, r.responses.length);
    if (!r.complete) {
      const totalPages = r.responses[0]?.data.totalPages ?? 0;
      gateway.noteIncompleteWalk(kind, LIST_PATHS[kind], { pages: r.responses.length, totalPages, items: r.items.length });
      return null;
    }
    return { items: r.items, shift: state.tz.shiftSince(gen) };
  }

  private async refreshList(kind: ListKind): Promise<void> {
    const { state, clock, events, finalTrips } = this.s;
    if (kind === 'activeTrips') {
      const walked = await this.walk(kind, (c, p) => c.activeTrips(p));
      if (!walked) return;
      const now = clock.now();
      const previous = state.trips;
      state.applyTrips(walked.shift ? walked.items.map((t) => shiftTripTimes(t, walked.shift)) : walked.items, now);
      if (events.has('trip-final')) finalTrips.noteWalk(previous, state.trips);
      events.emit('trips', { fetchedAt: now, trips: state.trips });
    } else if (kind === 'listBuses') {
      const walked = await this.walk(kind, (c, p) => c.listBuses(p));
      if (walked) state.applyBuses(walked.shift ? walked.items.map((b) => shiftBusTimes(b, walked.shift)) : walked.items, clock.now());
    } else {
      const walked = await this.walk(kind, (c, p) => c.listRoutes(p));
      if (walked) state.applyRoutes(walked.items, clock.now());
    }
  }

  /** How a trip that left /trips/active ended: one request, announced whatever it found (404: null). */
  private async refreshFinalTrip(tripId: number): Promise<void> {
    const { gateway, state, clock, events, finalTrips } = this.s;
    const gen = state.tz.generation;
    finalTrips.noteSent(clock.now());
    let trip: Trip | null;
    try {
      const { data } = await gateway.call('trip', { lane: 'poll', kind: 'finalTrip' }, (c) => c.trip(tripId));
      const shift = state.tz.shiftSince(gen);
      trip = shift ? shiftTripTimes(data, shift) : data;
    } catch (e) {
      if (!(e instanceof PartnerError)) throw e;
      // Any other failure was booked by the gateway; the trip waits for another turn (a few at most).
      if (e.status !== 404) {
        finalTrips.failed(tripId);
        return;
      }
      trip = null;
    }
    events.emit('trip-final', { fetchedAt: clock.now(), tripId, trip });
  }

  private async refreshStops(routeId: number): Promise<void> {
    const res = await this.s.gateway.call('routeStops', { lane: 'poll' }, (c) => c.routeStops(routeId));
    this.s.lookups.putStops(routeId, res.data, this.s.clock.now());
  }

  private async refreshLocation(track: BusTrack): Promise<void> {
    const { gateway, state, clock, config, budget } = this.s;
    const gen = state.tz.generation;
    try {
      const { data: loc } = await gateway.call('busLocation', { lane: 'poll' }, (c) => c.busLocation(track.busId));
      const fix = state.applyLocation(track, loc, gen, clock.now());
      if (fix) this.s.events.emit('fix', fix);
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
