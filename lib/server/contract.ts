// The contract between scripts/server/server.mjs and the app it serves. server.mjs is plain JavaScript outside
// Next's bundles; it is type-checked against this file (`// @ts-check`, and tsconfig.json includes it), so a change
// to what server start publishes that server.mjs does not follow fails the typecheck.
import type { AppSlot } from '@/lib/app-slot';
import type { LiveHandler } from '@/lib/http/live-answer';
import type { GtfsRtHandler } from '@/lib/server/gtfs-rt-guard';
import type { MetricsAnswer, MetricsRequest } from '@/lib/metrics/endpoint';
import type { RequestObserver } from '@/lib/metrics/serving';

/** What server.mjs needs of the application context (lib/server/context.ts). */
export interface ServedContext {
  /** Answers GET /api/live before Next.js, behind the same sign-in check as every other route. */
  readonly live: LiveHandler;
  /** Answers GET /gtfs-rt/vehicle-positions and /gtfs-rt/trip-updates before Next.js, behind the same check (lib/server/gtfs-rt-guard.ts). */
  readonly gtfsRt: GtfsRtHandler;
  /** Answers GET /metrics before Next.js (lib/metrics/endpoint.ts: a token or this machine, never the user sign-in). */
  readonly metrics: (req: MetricsRequest) => Promise<MetricsAnswer>;
  /** Shown every request, and every /api/live answer (lib/metrics/serving.ts). */
  readonly observer: RequestObserver;
  /** Stops the services and the feed, writes the recorder's last batch and closes the store (SIGTERM, SIGINT). */
  shutdown(): Promise<void>;
}

/** The slot as server.mjs sees it. */
export type ServedSlot = AppSlot<ServedContext>;
