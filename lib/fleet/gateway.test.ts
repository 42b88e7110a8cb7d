import { describe, expect, it } from 'vitest';
import { MINUTE, startTestFeed, stopAll } from '@/lib/testing/feed';

describe('UpstreamGateway', () => {
  it('sends nothing, of any lane, before Retry-After once a 429 came back, and reports rate-limited', async () => {
    const { clock, upstream, feed } = startTestFeed({ buses: 50, onTrip: 40, limit: 600 });
    await clock.advance(30_000);
    upstream.stormUntil = clock.now() + 12_000;
    upstream.stormRetryAfterS = 5;
    // Let the 429 arrive, then ask on demand while paused: it must wait too.
    await clock.advance(300);
    expect(feed.health().state).toBe('rate-limited');
    const pending = feed.trip(45, 'viewer');
    await clock.advance(30_000);
    // It waited for Retry-After, then met the storm again: a typed 503, not a crash or a hang.
    expect(await pending).toEqual({ ok: false, failure: expect.objectContaining({ status: 503 }) });
    // After the storm and the short failure memory, the same trip comes through.
    const again = feed.trip(45, 'viewer');
    await clock.advance(1_000);
    const answer = await again;
    await stopAll(clock, feed);

    const limited = upstream.calls.filter((c) => c.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const c of limited) {
      // The 429 reached the feed latency ms after it was sent; nothing else may be sent before Retry-After.
      const answeredAt = c.at + 50;
      const early = upstream.calls.filter((o) => o.at >= answeredAt && o.at < answeredAt + 5_000);
      expect(early).toEqual([]);
    }
    expect(answer.ok).toBe(true);
    expect(feed.health().budget.rateLimited429).toBe(limited.length);
  });

  it('turns unauthorized on a 401, keeps serving the last data with its age, re-checks once per trips interval and recovers', async () => {
    const { clock, upstream, feed, logs } = startTestFeed({ buses: 40, onTrip: 30, limit: 600 });
    await clock.advance(MINUTE);
    const located = feed.liveSnapshot().snapshot.vehicles.filter((v) => v.lat !== null).length;
    expect(located).toBe(40);
    upstream.revoked = true;
    await clock.advance(5_000);
    const during = feed.liveSnapshot().snapshot;
    expect(during.health.state).toBe('unauthorized');
    expect(during.vehicles.filter((v) => v.lat !== null)).toHaveLength(40);
    const sentWhileRevoked = upstream.count(undefined, clock.now());
    await clock.advance(2 * MINUTE);
    // Only /status re-checks, backing off from 10 s up to one trips interval (15 s) and no further, so a
    // restored key is back within one polling interval.
    const rechecks = upstream.calls.filter((c) => c.at >= clock.now() - 2 * MINUTE);
    expect(rechecks.every((c) => c.op === 'status')).toBe(true);
    const gaps = rechecks.slice(1).map((c, i) => c.at - rechecks[i]!.at);
    expect(gaps.length).toBeGreaterThanOrEqual(6);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(10_000);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(15_000 + 1_000);
    expect(sentWhileRevoked).toBe(0);
    upstream.revoked = false;
    await clock.advance(3 * MINUTE);
    expect(feed.health().state).not.toBe('unauthorized');
    expect(upstream.count('busLocation', clock.now() - MINUTE)).toBeGreaterThan(100);
    await stopAll(clock, feed);
    expect(logs.some((l) => l.status === 401 && l.operation && l.path)).toBe(true);
  });
});
