// Service regularity as our API answers it (/api/headways) and the pages draw it (the ladder, the trip list).
// The definitions live in lib/regularity (ghosts.ts, headways.ts) and docs/regularity.md.
import type { EpochMs } from './transit';
import type { UnpositionedTrip } from './live';

/** What regularity needs of the configuration (GHOST_AFTER_S, HEADWAY_BUNCHED_RATIO, HEADWAY_GAPPED_RATIO). */
export interface RegularityConfig {
  /** A trip whose bus has not been located for this long is a ghost. */
  ghostAfterS: number;
  /** A gap is bunched when h / h_sched ≤ this. */
  bunchedRatio: number;
  /** A gap is gapped when h / h_sched ≥ this. */
  gappedRatio: number;
}

export const DEFAULT_REGULARITY: RegularityConfig = { ghostAfterS: 300, bunchedRatio: 0.5, gappedRatio: 1.5 };

/**
 * Why a trip is a ghost:
 *  - `no-bus`: the trip is active and no bus is assigned to it;
 *  - `never-located`: its bus has given no position while the trip has run GHOST_AFTER_S;
 *  - `not-located`: its bus's last fix is older than GHOST_AFTER_S.
 */
export type GhostReason = 'no-bus' | 'never-located' | 'not-located';

/** An active trip no bus can be seen running: the ladder draws it at its scheduled place. */
export interface GhostTrip extends UnpositionedTrip {
  reason: GhostReason;
  /** GPS time of the bus's last fix, or null (no bus, or never located). */
  lastLocatedAt: EpochMs | null;
}
