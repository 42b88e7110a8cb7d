import 'server-only';
import type { EpochMs } from '@/lib/model';

// The feed as an event source: a recorder (history, replay, delay statistics) subscribes here without
// touching the poller.

export type Observation =
  | {
      type: 'location';
      busId: number;
      fetchedAt: EpochMs;
      gpsAt: EpochMs | null;
      lat: number;
      lon: number;
      speedKmh: number | null;
      heading: number | null;
      accuracy: number | null;
    }
  | {
      type: 'trip-delay';
      tripId: number;
      busId: number | null;
      routeId: number | null;
      seenAt: EpochMs;
      status: string | null;
      delayMinutes: number | null;
    };

export interface FeedEvents {
  observation: Observation;
}

type Listener<T> = (payload: T) => void;

export class TypedEmitter<Events extends object> {
  private listeners: { [K in keyof Events]?: Set<Listener<Events[K]>> } = {};

  /** Returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    (this.listeners[event] ??= new Set()).add(listener);
    return () => this.listeners[event]?.delete(listener);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners[event];
    if (!set) return;
    for (const listener of set) {
      try {
        listener(payload);
      } catch (e) {
        // A subscriber's bug must not stop the poller.
        console.error(JSON.stringify({ msg: 'feed listener threw', event: String(event), error: e instanceof Error ? e.name : typeof e }));
      }
    }
  }
}
