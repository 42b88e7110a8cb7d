import type { EpochMs } from '@/lib/model';

// The recent distinct fixes of each bus, from the feed's `fix` events (a snapshot holds only the latest): stopped
// needs minutes of them, off-route the last few. Each fix remembers where it lay against the trip it was on (lib/estimate's
// routeProgress), the off-route state after it and since when the bus stood, each worked out once: an evaluation
// redoes nothing for a bus whose newest fix it has already seen, so 10,000 buses cost a walk over the fleet.

export interface TrackFix {
  gpsAt: EpochMs;
  fetchedAt: EpochMs;
  lat: number;
  lon: number;
  tripId: number | null;
  /** The fix's reported accuracy (metres), when the upstream gives one. */
  accuracy?: number | null;
  /**
   * Against the trip's path, once computed: metres along, metres from the line and beyond its allowance, and whether
   * it lies on the path's first or last segment (a terminal's, where a turnaround loop runs far from the line).
   */
  route?: { alongM: number; offM: number; beyondM: number; lengthM: number; terminal: boolean } | null;
  /** The off-route rule's state after this fix (rules.ts), once worked out. */
  offRoute?: OffRouteState;
  /** GPS time of the oldest fix of this trip in the run of fixes within the stopped radius of this one, once worked out. */
  standingSince?: EpochMs;
}

/** Where the off-route hysteresis stands after a fix: runs of fixes beyond and within, and whether it holds. */
export interface OffRouteState {
  beyondRun: number;
  withinRun: number;
  on: boolean;
  beyondM: number;
}

/** Fixes kept per bus: enough for ALERT_STOPPED_MIN at the fastest refresh, bounded. */
const MAX_FIXES = 64;

export class BusTracks {
  private readonly byBus = new Map<number, TrackFix[]>();

  constructor(private keepMs: number) {}

  add(busId: number, fix: Omit<TrackFix, 'route' | 'offRoute' | 'standingSince'>): void {
    const list = this.byBus.get(busId) ?? [];
    const last = list[list.length - 1];
    // The same fix fetched again (GPS time unchanged) says nothing new: a silent GPS adds nothing here.
    if (last && last.gpsAt >= fix.gpsAt) return;
    // One shape for every fix (what is worked out later starts undefined), so the rules' walk stays monomorphic.
    list.push({ gpsAt: fix.gpsAt, fetchedAt: fix.fetchedAt, lat: fix.lat, lon: fix.lon, tripId: fix.tripId, accuracy: fix.accuracy ?? null, route: undefined, offRoute: undefined, standingSince: undefined });
    const cut = fix.gpsAt - this.keepMs;
    let drop = 0;
    while (drop < list.length - 2 && list[drop]!.gpsAt < cut) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length > MAX_FIXES) list.splice(0, list.length - MAX_FIXES);
    this.byBus.set(busId, list);
  }

  /**
   * The feed now reads upstream times `ms` later (its 'time-shift' event): the held fixes follow, so that fixes read
   * before and after it stay in order and a stand is timed across them (a first fix read under a wrong offset once
   * made a bus stand for 540 minutes, for one).
   */
  shift(ms: number): void {
    for (const list of this.byBus.values()) {
      for (const f of list) {
        f.gpsAt += ms;
        if (f.standingSince !== undefined) f.standingSince += ms;
      }
    }
  }

  /** Oldest first. */
  of(busId: number): readonly TrackFix[] {
    return this.byBus.get(busId) ?? [];
  }

  /** Forget buses that are no longer in the feed. */
  retain(busIds: ReadonlySet<number>): void {
    for (const id of this.byBus.keys()) if (!busIds.has(id)) this.byBus.delete(id);
  }
}
