import 'server-only';
import { logger } from '@/lib/log';
import type { EpochMs, HistoryFix, Trip, UpstreamError, UpstreamState } from '@/lib/model';

// The feed as an event source. A recorder (lib/history) or anything else subscribes at server start through
// `feed.events`; the poller never knows who listens. The shapes are a contract shared with the subscribers:
// change them only together with every subscriber.

/**
 * A new fix of a bus: a location answer with a position whose GPS time differs from the bus's previous fix. It is
 * the recorded fix itself (HistoryFix, lib/model/history.ts): one type from the feed to the store and back out
 * through the history API.
 */
export type FixEvent = HistoryFix;

/** One complete walk of /trips/active (a walk cut short emits nothing). */
export interface TripsEvent {
  fetchedAt: EpochMs;
  /** Deduplicated, sorted by id. */
  trips: Trip[];
}

/**
 * A trip that left /trips/active, as /trips/{id} answered afterwards: one low-priority request through the
 * budget's poll lane (after watched buses and on-trip locations are served; never more than a small share of
 * slots). `trip` is null when the upstream answered 404. Emitted at most once per trip id.
 */
export interface TripFinalEvent {
  fetchedAt: EpochMs;
  tripId: number;
  trip: Trip | null;
}

/** Every upstream request once it has an answer or failed: what the budget was spent on. */
export interface RequestEvent {
  at: EpochMs;
  /** A PartnerOperation ('status' | 'listBuses' | 'listRoutes' | 'routeStops' | 'activeTrips' | 'trip' | 'busLocation'), or 'finalTrip'. */
  kind: string;
  lane: 'poll' | 'demand';
  /** HTTP status, null for a timeout or network error. */
  status: number | null;
  ok: boolean;
  /** A failed request's error as the health reports it (correlation id included); absent when ok. */
  error?: UpstreamError;
  /** Wall-clock time from sending to the answer or the failure; absent for events not sent over HTTP (a replay). */
  durationMs?: number;
}

/** The upstream health changed state. */
export interface HealthEvent {
  at: EpochMs;
  from: UpstreamState;
  to: UpstreamState;
  /** The health message after the change. */
  message: string;
}

/**
 * The feed's reading of upstream times moved (lib/fleet/timezone.ts: an inferred offset changed, or was first found
 * after a stale first fix): every upstream time announced before now reads `shiftMs` later under the new rule. A
 * subscriber that holds fix or trip times adds it to them, as the feed does to its own.
 */
export interface TimeShiftEvent {
  at: EpochMs;
  shiftMs: number;
}

export interface FeedEvents {
  fix: FixEvent;
  'time-shift': TimeShiftEvent;
  trips: TripsEvent;
  'trip-final': TripFinalEvent;
  request: RequestEvent;
  health: HealthEvent;
}

/** What a restarted server knows before its first upstream answer (see Feed.restore). */
export interface WarmState {
  /** The newest fix of each bus, with its true GPS and fetched times. */
  fixes: FixEvent[];
  /** The trips that were active at the last complete walk before the stop, as they were then. */
  trips: Trip[];
  tripsFetchedAt: EpochMs | null;
}

type Listener<T> = (payload: T) => void;

export class TypedEmitter<Events extends object> {
  private listeners: { [K in keyof Events]?: Set<Listener<Events[K]>> } = {};

  /** Returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    (this.listeners[event] ??= new Set()).add(listener);
    return () => this.listeners[event]?.delete(listener);
  }

  /** Whether anyone listens: work done only to be announced is skipped when nobody would hear it. */
  has<K extends keyof Events>(event: K): boolean {
    return (this.listeners[event]?.size ?? 0) > 0;
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners[event];
    if (!set) return;
    for (const listener of set) {
      try {
        listener(payload);
      } catch (e) {
        // A subscriber's bug must not stop the poller.
        logger().error({ event: String(event), error: e instanceof Error ? e.name : typeof e }, 'feed listener threw');
      }
    }
  }
}
