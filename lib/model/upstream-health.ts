// The upstream's health as the feed knows it: its state, what the key may do, the last error, the budget and the
// freshness of the fixes. The full health goes to administrators; every other viewer gets LiveHealth
// (live-health.ts), which is made from it.
import type { EpochMs, PlanLevel } from './transit';

export type UpstreamState = 'starting' | 'ok' | 'degraded' | 'rate-limited' | 'unauthorized' | 'forbidden' | 'unreachable';

export interface Capabilities {
  buses: boolean;
  routes: boolean;
  stops: boolean;
  trips: boolean;
  /** gps:read on the business plan. */
  locations: boolean;
}

export interface UpstreamError {
  at: EpochMs;
  /** HTTP status, or null for network failures/timeouts/contract breaks. */
  status: number | null;
  kind: 'http' | 'timeout' | 'network' | 'contract';
  message: string;
  correlationId: string | null;
}

export interface Health {
  state: UpstreamState;
  /** One sentence for people: what is wrong and what happens now. */
  message: string | null;
  lastSuccessAt: EpochMs | null;
  lastError: UpstreamError | null;
  plan: string | null;
  level: PlanLevel | null;
  scopes: string[];
  capabilities: Capabilities;
  budget: {
    /** Upstream per-minute limit (from /status, updated from meta.rate_limit). */
    limit: number | null;
    /** Requests sent upstream in the last 60 s, all kinds. */
    usedLastMinute: number;
    /** Share of the limit the feed allows itself (FEED_BUDGET_SHARE). */
    share: number;
    byKind: Record<string, number>;
    rateLimited429: number;
    /** While paused after a 429: when requests may resume. */
    pausedUntil: EpochMs | null;
  };
  freshness: {
    /** Seconds; over positioned buses on active trips. */
    meanAgeS: number | null;
    p95AgeS: number | null;
    /** B/(2L) in seconds for the buses being tracked and the feed's share of the limit. */
    boundS: number | null;
    trackedBuses: number;
    /**
     * The weights the location scheduler gives the buses it tracks (expected speed plus its prior, km/h; it polls
     * each at a rate ∝ √weight), over those with a fix: equal weights make it round robin. Optional in the type
     * for the same reason as finalTrips.
     */
    weightsKmh?: { buses: number; min: number; p25: number; median: number; p75: number; max: number; atSpeedFloor: number } | null;
  };
  /**
   * The one /trips/{id} lookup of each trip that left /trips/active (how it ended), a low-priority job of the
   * poller that runs while a recorder listens (0 and 0 otherwise). The feed always sends it; optional in the type
   * so that a Health built by hand (a test's) need not invent figures for it.
   */
  finalTrips?: {
    /** Lookups sent in the last 60 minutes. */
    requestsLastHour: number;
    /** Trips that left and wait for their lookup. */
    pending: number;
  };
  /**
   * One sentence each from rooms beside the feed (the recorder: "history: not recording since 08:12 (…)"), added
   * through Feed.addHealthNote. Optional in the type so that a Health built by hand need not list them.
   */
  notes?: string[];
  /**
   * Several instances (lib/cluster): set while this instance cannot reach the coordination service (Redis). It
   * serves the last data it has, which no instance refreshes until coordination returns. Absent otherwise.
   */
  coordination?: {
    /** When this instance lost coordination. */
    lostAt: EpochMs;
    /** When the data served was built (the last version this instance received). */
    dataAt: EpochMs;
  };
  /** Data restored from the store at start, not yet replaced by an upstream answer: when it was recorded. */
  restoredFrom?: EpochMs;
  timezone: {
    /** IANA zone or a fixed offset such as `UTC-05:00`. */
    zone: string;
    /** `inferring`: an offset inferred once and in use, not yet confirmed by a second look at later fixes. */
    source: 'config' | 'inferred' | 'inferring' | 'default';
    offsetMinutes: number | null;
  };
}
