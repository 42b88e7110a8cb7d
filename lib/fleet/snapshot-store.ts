import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Health, LiveChanges, LiveSnapshot } from '@/lib/model';

/** One version of the live snapshot as served: serialised once, however many viewers read it. */
export interface StoredSnapshot {
  /** Carries its epoch and version: the ETag and every delta are named by them alone. */
  snapshot: LiveSnapshot;
  /** The full answer (`LiveFull`) as JSON, with the viewers' health (LiveHealth). */
  body: string;
  /**
   * The full health as of this version: administrators' (their answers add it as `fullHealth`, /api/status on an
   * instance that follows reads it). Never in `body`.
   */
  health: Health;
  /** What changed from the previous version of the same epoch; null on an epoch's first version. */
  changes: LiveChanges | null;
}

/**
 * Where the snapshot's versions are kept: the newest in full, and the recent step changes that `?since=`
 * answers are composed from. In memory for one process; a shared store (several instances, one leader writing)
 * fans the same versions out to every instance, so that versions and ETags are equal everywhere:
 *
 * - `epoch()` is the store's: versions count from 1 within it, and ETags and `since` values are
 *   `<epoch>-<version>`, with no per-process value in them. A shared store returns the same epoch on every
 *   instance and starts a new one (say from its leader lease's fencing counter) whenever versions could
 *   restart or fork, such as a new leader; browsers holding another epoch's version then get a full snapshot.
 * - `write()` is called by the one builder (the leader), with consecutive versions of the current epoch. Every
 *   feed's SnapshotBuilder writes when its content changed, so an instance that does not poll (a follower) must
 *   not build: the cluster decides which instance's feed builds, the store only keeps what it is given.
 * - `changesSince()` answers only from what the store still holds (its recent window).
 */
export interface SnapshotStore {
  /** The epoch versions are written in now: `[0-9a-z]{1,32}`. */
  epoch(): string;
  /** The newest version, or null before the first. */
  read(): StoredSnapshot | null;
  /** Makes `s` the newest version and keeps its step change for deltas. */
  write(s: StoredSnapshot): void;
  /**
   * The step changes from `version` to the newest, oldest first ([] when `version` is the newest); null when
   * `epoch` is not the current one or `version` is outside the recent window.
   */
  changesSince(epoch: string, version: number): LiveChanges[] | null;
}

/**
 * How many versions back a delta can start. Versions change at most once a second; browsers poll every 5 s,
 * and a tab the browser throttled in the background may come back minutes later: that one gets a full snapshot.
 */
export const RECENT_VERSIONS = 120;

export class MemorySnapshotStore implements SnapshotStore {
  private current: StoredSnapshot | null = null;
  /** steps[i] leads to version firstStep + i. */
  private steps: LiveChanges[] = [];
  private firstStep = 0;
  // A fresh epoch per process: a restarted server's version 5 is not this one's.
  private readonly epochId = randomBytes(4).toString('hex');

  constructor(private readonly recent = RECENT_VERSIONS) {}

  epoch(): string {
    return this.epochId;
  }

  read(): StoredSnapshot | null {
    return this.current;
  }

  write(s: StoredSnapshot): void {
    const prev = this.current;
    this.current = s;
    const consecutive = prev !== null && s.changes !== null && prev.snapshot.epoch === s.snapshot.epoch && s.snapshot.version === prev.snapshot.version + 1;
    if (!consecutive) {
      this.steps = [];
      this.firstStep = s.snapshot.version + 1;
      return;
    }
    this.steps.push(s.changes!);
    if (this.steps.length > this.recent) {
      this.steps.splice(0, this.steps.length - this.recent);
      this.firstStep = s.snapshot.version - this.recent + 1;
    }
  }

  changesSince(epoch: string, version: number): LiveChanges[] | null {
    const cur = this.current;
    if (!cur || epoch !== cur.snapshot.epoch || version > cur.snapshot.version) return null;
    if (version === cur.snapshot.version) return [];
    if (version + 1 < this.firstStep) return null;
    return this.steps.slice(version + 1 - this.firstStep);
  }
}
