import 'server-only';
import { vehicleSlowPart, type LiveChanges, type LiveSnapshot } from '@/lib/model';

// Which buses' trip and names (their "slow part") changed in which version, so that a compact delta
// (lib/model/live-compact.ts) sends a bus that only moved since the viewer's version as its position alone. Read
// from the feed's step changes (the store's, on a leader and a follower alike), one version after another; where a
// step is missing (a new epoch, a gap longer than the store keeps) it starts again from the snapshot, and deltas
// from before that point send every changed bus in full, which is always right.

export interface StepSource {
  liveChangesSince(epoch: string, version: number): LiveChanges[] | null;
}

export class SlowParts {
  private epoch = '';
  private version = -1;
  /** Versions from which on `changedAt` is complete: a delta since an older one sends its buses whole. */
  private from = Number.POSITIVE_INFINITY;
  private readonly part = new Map<number, string>();
  /** The last version whose step changed (or added, or removed) a bus's slow part. */
  private readonly changedAt = new Map<number, number>();

  /** Brought to `s`'s version. */
  advance(s: LiveSnapshot, source: StepSource): void {
    if (s.epoch === this.epoch && s.version === this.version) return;
    const steps = s.epoch === this.epoch && s.version > this.version ? source.liveChangesSince(this.epoch, this.version) : null;
    if (steps === null || steps.length !== s.version - this.version) return this.restart(s);
    for (let i = 0; i < steps.length; i++) {
      const at = this.version + 1 + i;
      const step = steps[i]!;
      for (const v of step.vehicles) {
        const p = vehicleSlowPart(v);
        if (this.part.get(v.busId) !== p) {
          this.part.set(v.busId, p);
          this.changedAt.set(v.busId, at);
        }
      }
      for (const id of step.removedBusIds) {
        this.part.delete(id);
        this.changedAt.set(id, at);
      }
    }
    this.version = s.version;
  }

  /** Whether `busId`'s slow part at the version advanced to is the one it had at `since`. */
  unchangedSince(busId: number, since: number): boolean {
    return since >= this.from && since <= this.version && (this.changedAt.get(busId) ?? 0) <= since;
  }

  private restart(s: LiveSnapshot): void {
    this.epoch = s.epoch;
    this.version = s.version;
    this.from = s.version;
    this.part.clear();
    this.changedAt.clear();
    for (const v of s.vehicles) this.part.set(v.busId, vehicleSlowPart(v));
  }
}
