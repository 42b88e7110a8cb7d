import type { AppConfig } from '@/lib/config';
import { FakeClock } from './fake-clock';
import { FakeUpstream, type FakeUpstreamOptions } from './fake-upstream';
import { Feed } from '@/lib/fleet/feed';
import type { SnapshotStore, StoredSnapshot } from '@/lib/fleet/snapshot-store';
import type { Health, LiveSnapshot } from '@/lib/model';

// A feed for unit tests: the scripted upstream on a fake clock, deterministic jitter, and its log kept.

export const MINUTE = 60_000;

export function testConfig(over: Partial<AppConfig['feed']> = {}): AppConfig {
  return {
    feed: {
      budgetShare: 0.8,
      tripsIntervalMs: 15_000,
      busesIntervalMs: 180_000,
      routesIntervalMs: 600_000,
      parkedFloorMs: 300_000,
      watchTtlMs: 30_000,
      ...over,
    },
    delay: { lateMin: 5, earlyMin: 1 },
    staleAfterS: 120,
  };
}

export interface TestFeedOptions {
  timezone?: string | null;
  feed?: Partial<AppConfig['feed']>;
  /** Runs on the feed before it starts (subscriptions, a warm restart). */
  beforeStart?: (feed: Feed, clock: FakeClock) => void;
  store?: SnapshotStore;
}

export function startTestFeed(up: Omit<FakeUpstreamOptions, 'clock'>, opts: TestFeedOptions = {}) {
  const clock = new FakeClock();
  const upstream = new FakeUpstream({ clock, ...up });
  const logs: Record<string, unknown>[] = [];
  let seed = 1;
  const feed = new Feed({
    config: testConfig(opts.feed),
    timezone: opts.timezone ?? null,
    client: (rule) => upstream.client(rule),
    clock,
    // Deterministic jitter.
    random: () => ((seed = (seed * 48271) % 2147483647) / 2147483647),
    log: (line) => logs.push(line),
    store: opts.store,
  });
  opts.beforeStart?.(feed, clock);
  feed.start();
  return { clock, upstream, feed, logs };
}

/** Stopping waits for requests in flight, whose latency runs on the fake clock: a second at a time until they settled. */
export async function stopAll(clock: FakeClock, feed: Feed) {
  let done = false;
  const stopped = feed.stop().then(() => void (done = true));
  for (let s = 0; s < 60 && !done; s++) await clock.advance(1_000);
  await stopped;
}

/** A snapshot with the full health in place of the viewers' (what an administrator's answer carries, as fullHealth). */
export type AdminSnapshot = Omit<LiveSnapshot, 'health' | 'fullHealth'> & { health: Health };

/** The administrators' view of a stored version, or of an answer made for an administrator. */
export function adminView(s: StoredSnapshot | LiveSnapshot): AdminSnapshot {
  if ('body' in s) return { ...s.snapshot, health: s.health };
  if (!s.fullHealth) throw new Error('this answer was not made for an administrator: it has no fullHealth');
  const { fullHealth, ...rest } = s;
  return { ...rest, health: fullHealth };
}
