// What /api/integration answers: the status page's view of the integration. The feed fills the upstream's part
// (its health and a short in-memory record of the last hour); the recorder (lib/history) and the cluster
// (lib/cluster) fill their optional sections at server start, and null says "not running here".
import type { EpochMs } from './transit';
import type { Health, UpstreamError, UpstreamState } from './live';

/** Upstream requests of one clock minute (the minute starting at `at`). */
export interface RequestMinute {
  at: EpochMs;
  /** Answered or failed requests by kind (a PartnerOperation, or 'finalTrip'). */
  byKind: Record<string, number>;
  /** 429 answers in that minute. */
  rateLimited429: number;
  /** Failed requests (any status, timeouts, unreadable answers) in that minute. */
  failed: number;
}

export interface RecordedUpstreamError extends UpstreamError {
  /** The request's kind: a PartnerOperation, or 'finalTrip'. */
  operation: string;
}

export interface HealthTransition {
  at: EpochMs;
  from: UpstreamState;
  to: UpstreamState;
  message: string;
}

/**
 * The feed's own memory of the last hour, kept in the server process and bounded (60 minutes, the newest 100
 * errors and transitions). Lost on restart: a recorder's store is what keeps history.
 */
export interface UpstreamRecord {
  /** Since when the record covers (the feed's start, or an hour ago). */
  since: EpochMs;
  /** One entry per clock minute that saw a request, oldest first. */
  minutes: RequestMinute[];
  /** Newest first. */
  errors: RecordedUpstreamError[];
  /** Oldest first. */
  transitions: HealthTransition[];
}

/** The recorder's state, as lib/history reports it. */
export interface RecorderStatus {
  state: 'starting' | 'recording' | 'behind' | 'failed' | 'stopped';
  /** Where the data lives, as the store says it for people (never a connection string). */
  store: string;
  /** How far the written data trails the feed, ms; null when unknown. */
  lagMs: number | null;
  /** Events waiting to be written. */
  pending: number;
  /** Rows dropped since start because the buffer was full (the store too slow or down); absent where nothing records. */
  droppedRows?: number;
  lastWriteAt: EpochMs | null;
  /** One sentence when something is wrong. */
  message: string | null;
}

/** This instance's place among several (lib/cluster). */
export interface InstanceStatus {
  role: 'leader' | 'follower' | 'candidate';
  /** The fencing epoch of the leader's lease this instance last saw. */
  epoch: number | null;
  instanceId: string;
  /** The leader's instance id, when known. */
  leaderId: string | null;
}

export interface BuildInfo {
  /** package.json version. */
  version: string;
  /** Next.js build id of the running build, null in development. */
  buildId: string | null;
}

export interface IntegrationResponse {
  generatedAt: EpochMs;
  health: Health;
  record: UpstreamRecord;
  /** null: no recorder runs in this server. */
  recorder: RecorderStatus | null;
  /** null: a single instance (no REDIS_URL). */
  instance: InstanceStatus | null;
  build: BuildInfo;
}

/** A bus's last trip as history recorded it. */
export interface BusLastTrip {
  tripId: number;
  routeCode: string | null;
  /** When the bus was last seen on that trip (its last fix or the trip's end), epoch ms. */
  lastSeenAt: EpochMs;
}

/** /api/buses/last-trips: `recorded: false` when no recorder keeps history here (nothing is guessed). */
export type LastTripsResponse = { recorded: false } | { recorded: true; byBus: Record<string, BusLastTrip> };

// What the rooms beside the feed tell the status page and the fleet table, plugged in at server start
// (lib/server/start.ts, into the application context's `status`) by whoever runs them: the recorder (lib/history) its state and each bus's last trip,
// the cluster (lib/cluster) this instance's role. A source left out means that room does not run here, and the
// pages say so ("no recorder", "single instance", "not recorded") rather than guess.
export interface StatusSources {
  recorder?: () => RecorderStatus;
  instance?: () => InstanceStatus;
  /** The last trip history recorded for each of these buses, by bus id (a bus without one is left out). */
  lastTrips?: (busIds: readonly number[]) => Promise<ReadonlyMap<number, BusLastTrip>>;
}
