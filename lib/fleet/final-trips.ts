import 'server-only';
import type { Trip } from '@/lib/model';

// Trips that left /trips/active, waiting for their one /trips/{id} lookup: how each trip ended (its actual
// arrival, its last delay) is only in that answer. The lookups are low priority: the job picker gives them at
// most one poll slot in FINAL_TRIP_EVERY_N_SLOTS, never a slot a watched bus waits for. Each trip is asked at
// most once, whatever its answer. Trips are queued only while something listens for 'trip-final' (the recorder,
// wired at server start): the feed itself has no use for the answers, and the budget is not spent on nobody.

/** At most one poll slot in this many goes to a final-trip lookup (10 %). */
export const FINAL_TRIP_EVERY_N_SLOTS = 10;
/** Trips waiting beyond this (a key too slow for the fleet's turnover) are dropped, oldest first, with a log line. */
const MAX_PENDING = 5_000;
/** Ids already asked, remembered so that none is asked twice; the oldest are forgotten past this many. */
const MAX_REMEMBERED = 50_000;
const HOUR_MS = 60 * 60_000;

export class FinalTrips {
  /** In the order the trips left (a Set keeps insertion order). */
  private readonly pending = new Set<number>();
  private readonly asked = new Set<number>();
  private readonly sentAt: number[] = [];

  constructor(private readonly log: (line: Record<string, unknown>) => void) {}

  /** Two complete walks, one after the other: the trips the first listed and the second does not have left. */
  noteWalk(previous: readonly Trip[], current: readonly Trip[]): void {
    const now = new Set(current.map((t) => t.id));
    // A trip listed again (a walk that missed it, a status flickering) is still running: nothing to ask yet.
    for (const id of now) this.pending.delete(id);
    for (const t of previous) if (!now.has(t.id) && !this.asked.has(t.id)) this.pending.add(t.id);
    let dropped = 0;
    for (const id of this.pending) {
      if (this.pending.size <= MAX_PENDING) break;
      this.pending.delete(id);
      dropped++;
    }
    if (dropped > 0) this.log({ msg: 'final trip lookups dropped', dropped, pending: this.pending.size });
  }

  get size(): number {
    return this.pending.size;
  }

  /** The trip that left first, now counted as asked (it will not be asked again). */
  take(): number | null {
    const id = this.pending.values().next().value;
    if (id === undefined) return null;
    this.pending.delete(id);
    this.asked.add(id);
    if (this.asked.size > MAX_REMEMBERED) this.asked.delete(this.asked.values().next().value!);
    return id;
  }

  noteSent(now: number): void {
    this.sentAt.push(now);
  }

  requestsLastHour(now: number): number {
    while (this.sentAt.length > 0 && this.sentAt[0]! <= now - HOUR_MS) this.sentAt.shift();
    return this.sentAt.length;
  }
}
