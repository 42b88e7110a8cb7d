// The simulator + the built app for a benchmark, on the e2e stack (e2e/support/stack.ts), with extra
// simulator keys for the peers so each contender spends its own per-key limit on the same simulated world.
import { canaryKey, startStack, type Stack } from '../../e2e/support/stack';
import type { Health } from '../../lib/model';
import { zoneAtLocalHour, type Truth } from '../../lib/sim';
import type { StatsSnapshot } from '../../lib/sim/stats';
import { findServerPid } from './proc-stats';

export type { TruthBus } from '../../lib/sim';

/**
 * The local hour of the simulator at start: early afternoon, about as busy as the simulator's day gets outside
 * the rush, whatever the hour of the run. The simulator and the app run on ONE clock, the real one: the
 * simulator's zone is chosen so that its local time is this hour now (zoneAtLocalHour), and the app is told that
 * zone. A simulator started at a fixed past date instead would make every fix look months old to the app,
 * which then weighs every bus alike. BENCH_LOCAL_HOUR in the environment chooses another hour (a rush hour: 7–9 or
 * 16–18, lib/sim/schedule.ts isPeakHour).
 */
export const BENCH_LOCAL_HOUR = process.env.BENCH_LOCAL_HOUR === undefined ? 13 : Number(process.env.BENCH_LOCAL_HOUR);
export const BENCH_DIST_DIR = '.next-bench';

/** The app server's script, as e2e/support/stack.ts starts it. */
const APP_SERVER_SCRIPT = 'scripts/server/server.mjs';
const ALL_SCOPES = ['buses:read', 'routes:read', 'stops:read', 'trips:read', 'gps:read'];

export interface PeerKey {
  /** At least 8 characters; the first four tell the contenders apart in /__admin/stats (keys are masked there). */
  key: string;
  limitPerMinute: number;
}

export interface BenchStackOptions {
  buses?: number;
  rateLimit: number;
  peerKeys?: PeerKey[];
  /** Extra environment for the app server (FEED_* knobs). */
  env?: Record<string, string>;
  /** The zone, when the caller chose it before (default: zoneAtLocalHour(BENCH_LOCAL_HOUR) at start). */
  zone?: string;
}

export interface BenchStack {
  stack: Stack;
  /** The zone both the simulator and the app use (its local time was BENCH_LOCAL_HOUR at start). */
  zone: string;
  appUrl: string;
  /** Partner API base URL of the simulator (ends in /api/v1/partner). */
  simBaseUrl: string;
  /** How the app's key shows in /__admin/stats. */
  appKeyMask: string;
  truth(): Promise<Truth>;
  /** The app server's process id (scripts/server/server.mjs; it changes when the app restarts), found in /proc. */
  appPid(): number;
  simStats(): Promise<StatsSnapshot>;
  resetSimStats(): Promise<void>;
  stop(): Promise<void>;
}

/** The simulator masks keys to their first four characters (lib/sim/keys.ts maskKey). */
export function maskedKey(key: string): string {
  return `${key.slice(0, 4)}…`;
}

export async function startBenchStack(opts: BenchStackOptions): Promise<BenchStack> {
  const appKey = canaryKey();
  const peers = opts.peerKeys ?? [];
  const masks = new Set([maskedKey(appKey), ...peers.map((p) => maskedKey(p.key))]);
  if (masks.size !== peers.length + 1) throw new Error('Bench keys must differ in their first four characters to be told apart in the simulator stats.');
  const simKeys = [
    { key: appKey, plan: 'business', scopes: ALL_SCOPES, limit_per_minute: opts.rateLimit },
    ...peers.map((p) => ({ key: p.key, plan: 'business', scopes: ALL_SCOPES, limit_per_minute: p.limitPerMinute })),
  ];
  const zone = opts.zone ?? zoneAtLocalHour(BENCH_LOCAL_HOUR);
  const stack = await startStack({
    buses: opts.buses,
    rateLimit: opts.rateLimit,
    simSpeed: 1,
    distDir: BENCH_DIST_DIR,
    simEnv: { SIM_KEYS: JSON.stringify(simKeys), SIM_TIMEZONE: zone },
    env: { PARTNER_TIMEZONE: zone, ...opts.env },
  });
  const admin = async <T>(path: string, method: 'GET' | 'POST' = 'GET'): Promise<T> => {
    const res = await fetch(`${stack.simAdminUrl}/__admin/${path}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? '{}' : undefined,
    });
    if (!res.ok) throw new Error(`simulator admin ${path}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  return {
    stack,
    zone,
    appUrl: stack.appUrl,
    simBaseUrl: stack.simBaseUrl,
    appKeyMask: maskedKey(appKey),
    truth: () => admin('truth'),
    appPid: () => {
      const pid = findServerPid(APP_SERVER_SCRIPT, Number(new URL(stack.appUrl).port));
      if (pid === null) throw new Error(`no ${APP_SERVER_SCRIPT} process serves ${stack.appUrl}`);
      return pid;
    },
    simStats: () => admin('stats'),
    resetSimStats: async () => void (await admin('stats/reset', 'POST')),
    stop: () => stack.stop(),
  };
}

/** Live snapshot fields the benchmarks read (a structural subset of lib/model LiveSnapshot). */
export interface LiveVehicle {
  busId: number;
  lat: number | null;
  lon: number | null;
  fetchedAt: number | null;
  trip: { tripId: number; plannedArrivalAt: number | null } | null;
}

export interface LiveBody {
  generatedAt: number;
  vehicles: LiveVehicle[];
  health: {
    state: string;
    budget: { limit: number | null; usedLastMinute: number; byKind: Record<string, number>; rateLimited429: number };
    freshness: Health['freshness'];
  };
}

export async function readLive(appUrl: string, query = ''): Promise<LiveBody> {
  const res = await fetch(`${appUrl}/api/live${query}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`/api/live${query}: HTTP ${res.status}`);
  return (await res.json()) as LiveBody;
}

/** Waits until the app's snapshot satisfies `ready` (the feed has warmed up), or fails after `timeoutMs`. */
export async function waitForLive(appUrl: string, what: string, ready: (live: LiveBody) => boolean, timeoutMs = 180_000): Promise<LiveBody> {
  const deadline = Date.now() + timeoutMs;
  let last: LiveBody | null = null;
  while (Date.now() < deadline) {
    try {
      last = await readLive(appUrl);
      if (ready(last)) return last;
    } catch {
      // the feed may still be starting
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`The app did not reach "${what}" within ${timeoutMs / 1000} s (last state: ${last?.health.state ?? 'no answer'}, ${last?.vehicles.length ?? 0} vehicles).`);
}
