import 'server-only';
import type { Trip } from '@/lib/model';

// Trips that left /trips/active, waiting for their one /trips/{id} lookup: how each trip ended (its actual
// arrival, its last delay) is only in that answer. The lookups are low priority: the job picker gives them at
// most one poll slot in FINAL_TRIP_EVERY_N_SLOTS, never a slot a watched bus waits for, and only what the other
// kinds leave under their cap of the requests sent (lib/fleet/job-picker.ts OTHER_KINDS_MAX_SHARE). Trips are queued only
// while something listens for 'trip-final' (the recorder, wired at server start): the feed itself has no use for
// the answers, and the budget is not spent on nobody.
//
// A walk of /trips/active can miss a trip that still runs (its pages shift while they are read), so a trip is
// asked only once a second complete walk has not listed it either; a trip listed again meanwhile is still
// running and stays off the queue. A trip asked and then listed again (it was missed by two walks, or the answer
// came while it still ran) is asked again when it leaves again: the last answer is the one that tells how it
// ended. A lookup that failed (not a 404) is tried again, at most MAX_ATTEMPTS times in all.

/** At most one poll slot in this many goes to a final-trip lookup (10 %). */
export const FINAL_TRIP_EVERY_N_SLOTS = 10;
/** Complete walks in a row that must have missed a trip before it is asked about. */
export const WALKS_TO_CONFIRM = 2;
/** Lookups of one trip's end, counting the retries of failed ones. */
export const MAX_ATTEMPTS = 3;
/** Trips waiting beyond this (a key too slow for the fleet's turnover) are dropped, oldest first, with a log line. */
const MAX_PENDING = 5_000;
/** Ids already asked, remembered so that none is asked twice; the oldest are forgotten past this many. */
const MAX_REMEMBERED = 50_000;
const HOUR_MS = 60 * 60_000;

export class FinalTrips {
  /** Trip id → complete walks in a row that have not listed it, in the order the trips left (a Map keeps it). */
  private readonly pending = new Map<number, number>();
  /** Trip id → lookups sent for it since it last left. */
  private readonly asked = new Map<number, number>();
  private readonly sentAt: number[] = [];
  private readyCount = 0;

  constructor(private readonly log: (line: Record<string, unknown>) => void) {}

  /** Two complete walks, one after the other: the trips the first listed and the second does not have left. */
  noteWalk(previous: readonly Trip[], current: readonly Trip[]): void {
    const now = new Set(current.map((t) => t.id));
    for (const id of now) {
      // Listed again: still running, so nothing to ask yet, and an earlier answer did not tell how it ended.
      this.pending.delete(id);
      this.asked.delete(id);
    }
    for (const [id, missed] of this.pending) this.pending.set(id, missed + 1);
    for (const t of previous) if (!now.has(t.id) && !this.asked.has(t.id) && !this.pending.has(t.id)) this.pending.set(t.id, 1);
    let dropped = 0;
    for (const id of this.pending.keys()) {
      if (this.pending.size <= MAX_PENDING) break;
      this.pending.delete(id);
      dropped++;
    }
    if (dropped > 0) this.log({ msg: 'final trip lookups dropped', dropped, pending: this.pending.size });
    this.readyCount = 0;
    for (const missed of this.pending.values()) if (missed >= WALKS_TO_CONFIRM) this.readyCount++;
  }

  /** Trips that left, confirmed or not. */
  get size(): number {
    return this.pending.size;
  }

  /** Trips confirmed gone, waiting for their lookup. */
  get ready(): number {
    return this.readyCount;
  }

  /** The confirmed trip that left first, now counted as asked (it will not be asked again unless listed again). */
  take(): number | null {
    for (const [id, missed] of this.pending) {
      if (missed < WALKS_TO_CONFIRM) continue;
      this.pending.delete(id);
      this.readyCount--;
      this.asked.set(id, (this.asked.get(id) ?? 0) + 1);
      if (this.asked.size > MAX_REMEMBERED) this.asked.delete(this.asked.keys().next().value!);
      return id;
    }
    return null;
  }

  /** The lookup of a trip taken failed (not a 404): it goes back to the end of the queue, within MAX_ATTEMPTS. */
  failed(id: number): boolean {
    const attempts = this.asked.get(id) ?? 0;
    if (attempts >= MAX_ATTEMPTS || this.pending.has(id)) return false;
    this.pending.set(id, WALKS_TO_CONFIRM);
    this.readyCount++;
    return true;
  }

  noteSent(now: number): void {
    this.sentAt.push(now);
  }

  requestsLastHour(now: number): number {
    while (this.sentAt.length > 0 && this.sentAt[0]! <= now - HOUR_MS) this.sentAt.shift();
    return this.sentAt.length;
  }
}
