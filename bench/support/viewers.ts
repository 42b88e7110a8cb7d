// Browsers polling a live endpoint the way the app's React Query does: every intervalMs, starts spread over
// the first interval, a poll skipped while the previous one is still running (refetchInterval never
// overlaps requests of one query). Node's fetch pools connections per origin without a cap, so each viewer
// keeps its own keep-alive connection, as a browser would.

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

export function startViewers(count: number, url: (viewer: number) => string, intervalMs: number): Viewers {
  const counts: ViewerCounts = { polls: 0, ok: 0, failed: 0, byStatus: {} };
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const busy = new Array<boolean>(count).fill(false);
  let stopped = false;

  const poll = (viewer: number) => {
    if (stopped || busy[viewer]) return;
    busy[viewer] = true;
    const p = (async () => {
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
        busy[viewer] = false;
      }
    })();
    running.add(p);
    void p.finally(() => running.delete(p));
  };

  for (let v = 0; v < count; v++) {
    const offset = (v * intervalMs) / count;
    timers.push(
      setTimeout(() => {
        poll(v);
        timers.push(setInterval(() => poll(v), intervalMs));
      }, offset),
    );
  }

  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      await Promise.allSettled([...running]);
      return counts;
    },
  };
}
