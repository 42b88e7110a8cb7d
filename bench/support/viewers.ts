// Browsers polling a live endpoint the way the app's React Query does: every intervalMs, starts spread over
// the first interval, a poll skipped while the previous one is still running (refetchInterval never
// overlaps requests of one query). schedulePolls is that beat, for any poll (bench/support/delta-viewers.ts
// follows deltas with it); startViewers polls one URL per viewer with Node's fetch, which pools connections per
// origin without a cap.

export interface ViewerCounts {
  polls: number;
  /** Answered with data (2xx, or 304 Not Modified). */
  ok: number;
  /** An error status, or no answer at all. */
  failed: number;
  byStatus: Record<string, number>;
}

export interface Viewers {
  stop(): Promise<ViewerCounts>;
}

export interface PollSchedule {
  /** Beats that found the viewer's previous poll still running, and so asked nothing. */
  skipped(): number;
  /** No new poll starts; resolves when the running ones have ended. */
  stop(): Promise<void>;
}

/** Calls `poll(viewer)` every `intervalMs` for each of `count` viewers, starts spread over the first interval. */
export function schedulePolls(count: number, intervalMs: number, poll: (viewer: number) => Promise<void>): PollSchedule {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const busy = new Array<boolean>(count).fill(false);
  let skipped = 0;
  let stopped = false;

  const beat = (viewer: number) => {
    if (stopped) return;
    if (busy[viewer]) {
      skipped++;
      return;
    }
    busy[viewer] = true;
    const p = poll(viewer).finally(() => {
      busy[viewer] = false;
      running.delete(p);
    });
    running.add(p);
  };

  for (let v = 0; v < count; v++) {
    const offset = (v * intervalMs) / count;
    timers.push(
      setTimeout(() => {
        beat(v);
        timers.push(setInterval(() => beat(v), intervalMs));
      }, offset),
    );
  }

  return {
    skipped: () => skipped,
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      await Promise.allSettled([...running]);
    },
  };
}

export function startViewers(count: number, url: (viewer: number) => string, intervalMs: number): Viewers {
  const counts: ViewerCounts = { polls: 0, ok: 0, failed: 0, byStatus: {} };
  const schedule = schedulePolls(count, intervalMs, async (viewer) => {
    try {
      const res = await fetch(url(viewer), { headers: { accept: 'application/json' } });
      await res.arrayBuffer();
      counts.byStatus[res.status] = (counts.byStatus[res.status] ?? 0) + 1;
      if (res.ok || res.status === 304) counts.ok++;
      else counts.failed++;
    } catch {
      counts.failed++;
      counts.byStatus.error = (counts.byStatus.error ?? 0) + 1;
    } finally {
      counts.polls++;
    }
  });
  return {
    async stop() {
      await schedule.stop();
      return counts;
    },
  };
}
