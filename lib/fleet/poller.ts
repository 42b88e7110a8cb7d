import 'server-only';
import type { AppConfig } from '@/lib/config';
import type { Paged, Trip } from '@/lib/model';
import { PartnerError, walkPages, type PageRequest, type PartnerClient, type PartnerOperation, type PartnerResponse, type WalkResult } from '@/lib/partner';
import type { Clock } from './clock';
import type { FeedEvents, TypedEmitter } from './events';
import type { FinalTrips } from './final-trips';
import type { FleetState } from './fleet-state';
import type { CallPurpose, UpstreamGateway } from './gateway';
import { InFlight } from './in-flight';
import type { Job, JobPicker, ListKind } from './job-picker';
import type { BusTrack } from './location-scheduler';
import type { Lookups } from './lookups';
import type { RateBudget } from './rate-budget';
import { shiftBusTimes, shiftTripTimes } from './times';

// The one loop that spends the poll lane: wait for a slot, let the job picker say what it is for, start it, and
// go on to the next slot. The loop never waits for an answer: every request runs beside it, so the slots keep coming
// on the budget's grid however slow the answers are. A list walk runs beside too, one page at a time: after each
// answer it asks for its next page's slot, which the picker grants between locations (never two list pages in a
// row while locations wait), so each page still spends one slot and counts in the budget split like any request.
// How many requests may be out at once follows the answers' latency (in-flight.ts). Answers go into the fleet
// state, and out as the feed's events: a new fix, a complete trips walk, a trip's final answer (the gateway
// announces every request itself).

/** With nothing to do, the loop looks again this much later (a list falls due, a key comes back). */
const IDLE_RECHECK_MS = 1_000;
/** After a bug of ours in the loop, this pause keeps a repeating one from spinning. */
const LOOP_ERROR_PAUSE_MS = 1_000;
/** A failing bus's wait doubles per failure up to 2^this slots (and never past its parked floor). */
const MAX_BACKOFF_DOUBLINGS = 20;
const LIST_PATHS: Record<ListKind, string> = { activeTrips: '/trips/active', listBuses: '/buses', listRoutes: '/routes' };

/** A walk waiting for its next page's slot when the poller stops or starts following: it ends, not applied. */
class WalkCancelled extends Error {
  constructor() {
    super('list walk cancelled');
    this.name = 'WalkCancelled';
  }
}

export interface PollerSources {
  clock: Clock;
  config: AppConfig['feed'];
  budget: RateBudget;
  gateway: UpstreamGateway;
  state: FleetState;
  picker: JobPicker;
  lookups: Lookups;
  finalTrips: FinalTrips;
  /** Requests of the poll lane allowed out at once, at most (the hard ceiling of the latency-sized cap). */
  maxInFlight: number;
  log: (line: Record<string, unknown>) => void;
  events: TypedEmitter<FeedEvents>;
  signal: AbortSignal;
  /** False while another instance polls (this feed follows it): the loop sends nothing and waits. */
  active?: () => boolean;
}

export class Poller {
  /** Everything running beside the loop: requests, and list walks between their pages. */
  private readonly tasks = new Set<Promise<void>>();
  private readonly inFlight: InFlight;
  /** Walks waiting for their next page's slot, by list (one walk of a list at a time): the loop hands it over. */
  private readonly pageSlots = new Map<ListKind, (granted: boolean) => void>();
  /** Ends the loop's idle wait early (a walk asks for its next page). */
  private wakeIdle: (() => void) | null = null;
  private done: Promise<void> | null = null;

  constructor(private readonly s: PollerSources) {
    this.inFlight = new InFlight(s.clock, s.maxInFlight);
  }

  start(): void {
    this.done ??= this.loop();
  }

  /** Resolves once the loop has ended (after the signal aborted) and every request in flight settled. */
  async stopped(): Promise<void> {
    await this.done;
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private async loop(): Promise<void> {
    const { clock, budget, picker, signal } = this.s;
    while (!signal.aborted) {
      try {
        if (this.s.active && !this.s.active()) {
          this.cancelWalks();
          await this.idle(IDLE_RECHECK_MS);
          continue;
        }
        if (this.inFlight.count >= this.inFlight.cap(budget.pollIntervalMs())) {
          await this.inFlight.settled();
          continue;
        }
        if (!picker.hasWork(clock.now(), this.inFlight.count)) {
          await this.idle(IDLE_RECHECK_MS);
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
        this.begin(job);
      } catch (e) {
        if (signal.aborted) break;
        // Upstream errors are handled where they happen; this is a bug of ours: say so and keep polling.
        this.s.log({ msg: 'feed loop error', error: e instanceof Error ? e.name : typeof e });
        await clock.sleep(LOOP_ERROR_PAUSE_MS, signal);
      }
    }
    this.cancelWalks();
  }

  /**
   * Sleeps up to ms, or until the feed stops, a walk asks for a slot or a request is answered (the first /status
   * answer makes the fleet pollable, an answered bus may be asked again).
   */
  private async idle(ms: number): Promise<void> {
    const { clock, signal } = this.s;
    const wake = new AbortController();
    const stop = () => wake.abort();
    signal.addEventListener('abort', stop, { once: true });
    this.wakeIdle = stop;
    if (this.inFlight.count > 0) void this.inFlight.settled().then(stop);
    try {
      await clock.sleep(ms, wake.signal);
    } finally {
      this.wakeIdle = null;
      signal.removeEventListener('abort', stop);
    }
  }

  /** Starts the job its slot was granted for, beside the loop. */
  private begin(job: Job): void {
    const { gateway, picker, clock } = this.s;
    const now = clock.now();
    switch (job.kind) {
      case 'status':
        return this.beside(this.inFlight.run(() => gateway.refreshStatus()));
      case 'activeTrips':
      case 'listBuses':
      case 'listRoutes': {
        if (job.continues) return this.handPageSlot(job.kind);
        picker.listStarted(job.kind, now);
        // A page goes out a few promise steps after its slot (walkPages'): it counts as out from the slot on.
        this.inFlight.reserve();
        return this.beside(this.refreshList(job.kind));
      }
      case 'routeStops':
        picker.stopsStarted(job.routeId, now);
        return this.beside(this.refreshStops(job.routeId));
      case 'busLocation':
        job.track.inFlight = true;
        return this.beside(this.refreshLocation(job.track));
      case 'finalTrip':
        return this.beside(this.refreshFinalTrip(job.tripId));
    }
  }

  private beside(task: Promise<void>): void {
    const p: Promise<void> = task
      .catch((e: unknown) => {
        // Upstream errors were recorded by the gateway; a walk cut off by a stop ends quietly.
        if (e instanceof PartnerError || e instanceof WalkCancelled || this.s.signal.aborted) return;
        this.s.log({ msg: 'feed loop error', error: e instanceof Error ? e.name : typeof e });
      })
      .finally(() => this.tasks.delete(p));
    this.tasks.add(p);
  }

  /** The slot the picker gave the next page of the walk under way goes to that walk. */
  private handPageSlot(kind: ListKind): void {
    const go = this.pageSlots.get(kind);
    if (!go) return;
    this.pageSlots.delete(kind);
    this.inFlight.reserve();
    go(true);
  }

  /** Walks waiting for a page's slot end (stopping, or another instance polls now); each tells the picker itself. */
  private cancelWalks(): void {
    for (const [kind, go] of this.pageSlots) {
      this.pageSlots.delete(kind);
      go(false);
    }
  }

  /** The slot that started the walk pays for its first page; each further page waits for the one the loop hands it. */
  private pagePacer(kind: ListKind): () => Promise<void> {
    let first = true;
    return () => {
      if (first) {
        first = false;
        return Promise.resolve();
      }
      if (this.s.signal.aborted || (this.s.active && !this.s.active())) return Promise.reject(new WalkCancelled());
      return new Promise<void>((resolve, reject) => {
        this.pageSlots.set(kind, (granted) => (granted ? resolve() : reject(new WalkCancelled())));
        this.s.picker.pageWanted(kind);
        this.wakeIdle?.();
      });
    };
  }

  /** One request of the poll lane, counted while it is out (`reserved`: from its slot on, a list page). */
  private send<T>(op: PartnerOperation, purpose: CallPurpose, call: (c: PartnerClient) => Promise<PartnerResponse<T>>, reserved = false): Promise<PartnerResponse<T>> {
    return this.inFlight.run(() => this.s.gateway.call(op, purpose, call), reserved);
  }

  /** Every page of a list, or null when its pages ran out early: then the last complete list stays. */
  private async walk<T>(kind: ListKind, page: (c: PartnerClient, p: PageRequest) => Promise<PartnerResponse<Paged<T>>>) {
    const { gateway, state, picker } = this.s;
    const gen = state.tz.generation;
    let r: WalkResult<T>;
    try {
      r = await walkPages((p) => this.send(kind, { lane: 'poll' }, (c) => page(c, p), true), { beforePage: this.pagePacer(kind) });
    } finally {
      picker.walkEnded(kind);
    }
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
    const { state, clock, events, finalTrips } = this.s;
    const gen = state.tz.generation;
    finalTrips.noteSent(clock.now());
    let trip: Trip | null;
    try {
      const { data } = await this.send('trip', { lane: 'poll', kind: 'finalTrip' }, (c) => c.trip(tripId));
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
    const res = await this.send('routeStops', { lane: 'poll' }, (c) => c.routeStops(routeId));
    this.s.lookups.putStops(routeId, res.data, this.s.clock.now());
  }

  private async refreshLocation(track: BusTrack): Promise<void> {
    const { state, clock, config, budget } = this.s;
    const gen = state.tz.generation;
    try {
      const { data: loc } = await this.send('busLocation', { lane: 'poll' }, (c) => c.busLocation(track.busId));
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
