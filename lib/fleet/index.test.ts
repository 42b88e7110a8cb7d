import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestEvent } from './events';
import { Feed } from './feed';
import { startFeed } from './index';

// Server start wires subscribers before the feed sends its first request. The upstream here is a closed port:
// the one request it makes fails at once, and that is all this test needs to see.
const ENV = { PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1/partner', PARTNER_API_KEY: 'test-key-for-wiring' };

describe('startFeed', () => {
  const feeds: Feed[] = [];
  afterEach(async () => {
    await Promise.all(feeds.splice(0).map((f) => f.stop()));
    vi.restoreAllMocks();
    for (const k of Object.keys(ENV)) delete process.env[k];
  });

  it('runs the wiring on the new feed before it starts, and keeps no feed of its own: each call is a new feed', async () => {
    Object.assign(process.env, ENV);
    const seen: RequestEvent[] = [];
    let wired: Feed | null = null;
    const feed = await startFeed({
      beforeStart: (f) => {
        // Nothing was sent yet: the subscriber hears every request from the first.
        expect(f.budget.stats().usedLastMinute).toBe(0);
        wired = f;
        f.events.on('request', (e) => seen.push(e));
      },
    });
    feeds.push(feed);
    expect(wired).toBe(feed);
    // No process-wide feed: only server start calls this, once, and keeps the feed in the application context.
    const other = await startFeed();
    feeds.push(other);
    expect(other).not.toBe(feed);
    // The refused connection fails within milliseconds; the deadline only stops a hang on a loaded machine.
    await expect.poll(() => seen.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ kind: 'status', lane: 'poll', status: null, ok: false });
  });

  it('never starts a feed whose wiring failed', async () => {
    Object.assign(process.env, ENV);
    const start = vi.spyOn(Feed.prototype, 'start');
    let wired: Feed | null = null;
    await expect(
      startFeed({
        beforeStart: (f) => {
          wired = f;
          return Promise.reject(new Error('store unreachable'));
        },
      }),
    ).rejects.toThrow('store unreachable');
    expect(wired).toBeInstanceOf(Feed);
    expect(start).not.toHaveBeenCalled();
  });
});
