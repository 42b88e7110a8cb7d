import type { EpochMs } from '@/lib/model';

// The recent distinct fixes of each bus, from the feed's `fix` events (a snapshot holds only the latest): stopped
// needs minutes of them, off-route the last two. Each fix remembers where it lay against the trip it was on, worked
// out once (lib/estimate's routeProgress), so evaluating 10,000 buses does not project anything twice.

export interface TrackFix {
  gpsAt: EpochMs;
  fetchedAt: EpochMs;
  lat: number;
  lon: number;
  tripId: number | null;
  /** Against the trip's path, once computed: metres along, and metres beyond the route's allowance. */
  route?: { alongM: number; beyondM: number; lengthM: number } | null;
}

/** Fixes kept per bus: enough for ALERT_STOPPED_MIN at the fastest refresh, bounded. */
const MAX_FIXES = 64;

export class BusTracks {
  private readonly byBus = new Map<number, TrackFix[]>();

  constructor(private keepMs: number) {}

  add(busId: number, fix: Omit<TrackFix, 'route'>): void {
    const list = this.byBus.get(busId) ?? [];
    const last = list[list.length - 1];
    // The same fix fetched again (GPS time unchanged) says nothing new: a silent GPS adds nothing here.
    if (last && last.gpsAt >= fix.gpsAt) return;
    list.push({ ...fix });
    const cut = fix.gpsAt - this.keepMs;
    let drop = 0;
    while (drop < list.length - 2 && list[drop]!.gpsAt < cut) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length > MAX_FIXES) list.splice(0, list.length - MAX_FIXES);
    this.byBus.set(busId, list);
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
