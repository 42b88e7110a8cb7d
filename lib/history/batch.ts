import 'server-only';
import type { FixRow } from './fix-columns';
import type { trips } from './schema';

// What the recorder has heard and not yet written. Upserts coalesce (the newest state of a trip, the count of a
// budget minute), so the rows a batch holds grow with the fixes and the changes, which the recorder bounds.

export type { FixRow };
export type TripRow = Omit<typeof trips.$inferInsert, 'finalAt' | 'finalFound'>;
export interface ChangeRow<T> {
  tripId: number;
  at: number;
  value: T;
}
export interface FinalRow {
  tripId: number;
  fetchedAt: number;
  /** The trip as /trips/{id} answered, or null for a 404. */
  trip: TripRow | null;
}
export interface HealthRow {
  at: number;
  fromState: string;
  toState: string;
  message: string;
}
export interface BudgetRow {
  minute: number;
  kind: string;
  lane: string;
  requests: number;
  failures: number;
}

export class Batch {
  readonly fixes = new Map<string, FixRow>();
  /** Trips whose fields changed: written in full. */
  readonly tripUpserts = new Map<number, TripRow>();
  /** Trips seen again unchanged: only last_seen_at moves. */
  readonly tripSeen = new Map<number, number>();
  readonly statusChanges: ChangeRow<string | null>[] = [];
  readonly delayChanges: ChangeRow<number | null>[] = [];
  readonly finals = new Map<number, FinalRow>();
  readonly health: HealthRow[] = [];
  readonly budget = new Map<string, BudgetRow>();
  /** When the newest complete /trips/active walk was fetched: its trips are the open ones. */
  walkAt: number | null = null;

  get rows(): number {
    return (
      this.fixes.size + this.tripUpserts.size + this.tripSeen.size + this.statusChanges.length + this.delayChanges.length + this.finals.size + this.health.length + this.budget.size
    );
  }

  get empty(): boolean {
    return this.rows === 0 && this.walkAt === null;
  }

  addFix(row: FixRow): void {
    this.fixes.set(`${row.busId}:${row.fixAt}`, row);
  }

  addRequest(minute: number, kind: string, lane: string, ok: boolean): void {
    const key = `${minute}|${kind}|${lane}`;
    const row = this.budget.get(key) ?? { minute, kind, lane, requests: 0, failures: 0 };
    row.requests += 1;
    if (!ok) row.failures += 1;
    this.budget.set(key, row);
  }

  /**
   * Puts a batch that failed to write in front of this newer one: the newer state of a trip wins, counts add up,
   * change rows keep their order. Nothing of a failed batch was written (one transaction), so nothing doubles.
   */
  absorbOlder(older: Batch): void {
    for (const [k, v] of older.fixes) if (!this.fixes.has(k)) this.fixes.set(k, v);
    for (const [k, v] of older.tripUpserts) if (!this.tripUpserts.has(k)) this.tripUpserts.set(k, v);
    for (const [k, v] of older.tripSeen) if (!this.tripUpserts.has(k)) this.tripSeen.set(k, Math.max(v, this.tripSeen.get(k) ?? v));
    this.statusChanges.unshift(...older.statusChanges);
    this.delayChanges.unshift(...older.delayChanges);
    for (const [k, v] of older.finals) if (!this.finals.has(k)) this.finals.set(k, v);
    this.health.unshift(...older.health);
    for (const [k, v] of older.budget) {
      const mine = this.budget.get(k);
      if (mine) {
        mine.requests += v.requests;
        mine.failures += v.failures;
      } else this.budget.set(k, v);
    }
    if (this.walkAt === null) this.walkAt = older.walkAt;
  }
}
