import 'server-only';
import type { BusLastTrip, IntegrationResponse, LastTripsResponse, RecorderStatus } from '@/lib/model';
import type { Feed } from '@/lib/fleet';
import { buildInfo } from './build-info';
import type { StatusSources } from './status-sources';

/** The status page's answer: the feed's health and last hour, the recorder's and the cluster's sections, the build. */
export function integrationStatus(feed: Feed, sources: StatusSources): IntegrationResponse {
  const { recorder, instance } = sources;
  return {
    generatedAt: Date.now(),
    health: feed.health(),
    record: feed.upstreamRecord(),
    recorder: recorder ? recorderStatus(recorder) : null,
    instance: instance ? instance() : null,
    build: buildInfo(),
  };
}

/** A recorder that cannot say how it is doing is shown as failed, never as a broken status page. */
function recorderStatus(read: () => RecorderStatus): RecorderStatus {
  try {
    return read();
  } catch (e) {
    const message = `The recorder could not report its state: ${e instanceof Error ? e.message : String(e)}`;
    return { state: 'failed', store: 'unknown', lagMs: null, pending: 0, lastWriteAt: null, message };
  }
}

/** The last trip of each bus the feed has listed, from history, or `recorded: false` when no recorder runs here. */
export async function lastTrips(feed: Pick<Feed, 'busesList'>, sources: StatusSources): Promise<LastTripsResponse> {
  const source = sources.lastTrips;
  if (!source) return { recorded: false };
  const listed = feed.busesList();
  const busIds = listed.ok ? listed.value.buses.map((b) => b.id) : [];
  const byBus: Record<string, BusLastTrip> = {};
  for (const [busId, trip] of await source(busIds)) byBus[String(busId)] = trip;
  return { recorded: true, byBus };
}
