import { describe, expect, it } from 'vitest';
import type { TripsEvent } from './events';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

describe('Poller over 10 simulated minutes with 500 buses', () => {
  it('stays within share × limit in every 60 s window, keeps parked buses within their floor, and reports age vs the bound', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 500, onTrip: 400, limit: 600 });
    const start = clock.now();
    const samples: { mean: number; p95: number; bound: number }[] = [];
    for (let t = 0; t < 10 * MINUTE; t += 10_000) {
      await clock.advance(10_000);
      const f = feed.health().freshness;
      // Ages settle once every bus has been located and the parked ones have had their first visit.
      if (t >= 3 * MINUTE && f.meanAgeS !== null && f.p95AgeS !== null && f.boundS !== null) samples.push({ mean: f.meanAgeS, p95: f.p95AgeS, bound: f.boundS });
    }
    await stopAll(clock, feed);

    expect(upstream.calls.filter((c) => c.status === 429)).toEqual([]);
    expect(upstream.maxInAnyMinute()).toBeLessThanOrEqual(0.8 * 600);
    // The budget is actually spent, not left idle.
    expect(upstream.maxInAnyMinute()).toBeGreaterThan(0.75 * 600);

    // Every parked bus (no trip) is located again within FEED_PARKED_FLOOR_S.
    let worstParkedGap = 0;
    for (let id = 401; id <= 500; id++) {
      const times = upstream.calls.filter((c) => c.op === 'busLocation' && c.id === id).map((c) => c.at);
      expect(times.length).toBeGreaterThan(1);
      for (let i = 1; i < times.length; i++) worstParkedGap = Math.max(worstParkedGap, times[i]! - times[i - 1]!);
      worstParkedGap = Math.max(worstParkedGap, start + 10 * MINUTE - times[times.length - 1]!);
    }
    expect(worstParkedGap).toBeLessThanOrEqual(300_000);

    const mean = samples.reduce((a, s) => a + s.mean, 0) / samples.length;
    const p95 = samples.reduce((a, s) => a + s.p95, 0) / samples.length;
    const bound = samples.reduce((a, s) => a + s.bound, 0) / samples.length;
    console.info(
      `scheduler: 500 buses (400 on trips), limit 600/min, share 0.8 → max ${upstream.maxInAnyMinute()} req in any minute; ` +
        `on-trip mean age ${mean.toFixed(1)} s, p95 ${p95.toFixed(1)} s, bound B/(2L) ${bound.toFixed(1)} s, ratio ${(mean / bound).toFixed(2)}; ` +
        `worst parked gap ${(worstParkedGap / 1000).toFixed(0)} s; requests by kind ${JSON.stringify(countBy(upstream.calls.map((c) => c.op)))}`,
    );
    // Polling at a rate ∝ sqrt(speed) trades a little mean age for less position error; it must stay near the bound.
    expect(mean / bound).toBeLessThan(1.5);
    expect(mean / bound).toBeGreaterThan(0.5);
  });
});

describe('Poller after a fault', () => {
  it('keeps locations flowing while every overdue list walks its pages after a fault ends', async () => {
    // 855 buses all on trips: 9 pages each of trips and buses, all overdue when the key comes back.
    const { clock, upstream, feed } = startTestFeed({ buses: 855, onTrip: 855, limit: 600 });
    await clock.advance(3 * MINUTE);
    upstream.revoked = true;
    await clock.advance(4 * MINUTE);
    upstream.revoked = false;
    const back = clock.now();
    await clock.advance(MINUTE);
    await stopAll(clock, feed);

    const after = upstream.calls.filter((c) => c.at >= back && c.status === 200).sort((a, b) => a.at - b.at);
    const recheck = after.findIndex((c) => c.op === 'status');
    expect(recheck).toBeGreaterThanOrEqual(0);
    const next = after.slice(recheck + 1, recheck + 41).map((c) => c.op);
    const pages = next.filter((op) => op === 'activeTrips' || op === 'listBuses' || op === 'listRoutes').length;
    // Both overdue walks (9 pages each) are done, and never two list pages in a row.
    expect(next.slice(0, 2)).toContain('busLocation');
    expect(pages).toBeGreaterThanOrEqual(18);
    expect(next.filter((op) => op === 'busLocation').length).toBeGreaterThanOrEqual(pages - 1);
    for (let i = 1; i < next.length; i++) {
      if (next[i] !== 'busLocation' && next[i] !== 'routeStops') expect(next[i - 1], `request ${i} after the key came back`).not.toMatch(/^(activeTrips|listBuses|listRoutes)$/);
    }
  });
});


describe('Poller on a list walk cut short', () => {
  it('keeps the last complete list, logs the walk once and shows it in the health, and takes the next complete one', async () => {
    const walks: TripsEvent[] = [];
    const { clock, upstream, feed, logs } = startTestFeed({ buses: 250, onTrip: 250, limit: 600 }, { beforeStart: (f) => void f.events.on('trips', (e) => walks.push(e)) });
    await clock.advance(MINUTE);
    const complete = walks.length;
    expect(complete).toBeGreaterThan(0);
    expect(feed.liveSnapshot().snapshot.vehicles.filter((v) => v.trip)).toHaveLength(250);
    upstream.cutShortTrips = true;
    const from = clock.now();
    await clock.advance(40_000);
    const { snapshot: during, health: duringHealth } = feed.liveSnapshot();
    // Pages 2 and 3 came back empty: the 250 trips (and their buses' tracks) stay as the last complete walk had them.
    const cut = upstream.calls.filter((c) => c.op === 'activeTrips' && c.at >= from && c.status === 200).length;
    expect(cut).toBeGreaterThanOrEqual(4);
    expect(walks).toHaveLength(complete);
    expect(during.vehicles.filter((v) => v.trip)).toHaveLength(250);
    const lines = logs.filter((l) => l.msg === 'incomplete list walk');
    expect(lines.length).toBe(cut / 2);
    expect(lines[0]).toEqual({ msg: 'incomplete list walk', operation: 'activeTrips', path: '/trips/active', pages: 2, totalPages: 3, items: 100 });
    expect(during.health.state).toBe('degraded');
    // The upstream's own words are in the full health (administrators'); viewers get the sentence without them.
    expect(during.health.message).toMatch(/^Some upstream requests failed \d+ s ago; data is still flowing\.$/);
    expect(duringHealth.message).toMatch(/\(The list \/trips\/active ended at page 2 of 3; the last complete list is kept\.\); data is still flowing\.$/);
    upstream.cutShortTrips = false;
    await clock.advance(20_000);
    await stopAll(clock, feed);
    expect(walks.length).toBeGreaterThan(complete);
    expect(walks.at(-1)!.trips).toHaveLength(250);
  });
});

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
