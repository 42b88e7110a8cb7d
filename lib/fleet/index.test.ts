import { afterEach, describe, expect, it } from 'vitest';
import type { RequestEvent } from './events';
import { ensureFeedStarted, startFeed, stopFeed, type Feed } from './index';

// Server start wires subscribers before the feed sends its first request. The upstream here is a closed port:
// the one request it makes fails at once, and that is all this test needs to see.
const ENV = { PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1/partner', PARTNER_API_KEY: 'test-key-for-wiring' };

describe('startFeed', () => {
  afterEach(async () => {
    await stopFeed();
    for (const k of Object.keys(ENV)) delete process.env[k];
  });

  it('runs the wiring on the process feed before it starts, and serves that feed to every caller', async () => {
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
    expect(wired).toBe(feed);
    expect(ensureFeedStarted()).toBe(feed);
    expect(await startFeed({ beforeStart: () => expect.unreachable('a second wiring') })).toBe(feed);
    // The refused connection fails within milliseconds; the deadline only stops a hang on a loaded machine.
    await expect.poll(() => seen.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ kind: 'status', lane: 'poll', status: null, ok: false });
  });

  it('forgets a feed whose wiring failed, so that the next caller gets a working one', async () => {
    Object.assign(process.env, ENV);
    await expect(startFeed({ beforeStart: () => Promise.reject(new Error('store unreachable')) })).rejects.toThrow('store unreachable');
    const feed = ensureFeedStarted();
    expect(await startFeed()).toBe(feed);
  });
});
