import 'server-only';
import type { Feed } from '@/lib/fleet';
import { predictions } from '@/lib/predictions';
import { gtfsRtConfig } from './config';
import { GtfsRtService, type GtfsRtFormat, type GtfsRtKind } from './service';

export { GtfsRtService, type GtfsRtKind, type GtfsRtFormat } from './service';
export { readGtfsRtConfig } from './config';

// One GTFS-Realtime service per server process, beside the feed and the predictions (see lib/fleet/index.ts for
// why the registry is a symbol on globalThis).
const GTFS_RT = Symbol.for('fleetmap.gtfs-rt');
type Holder = { [GTFS_RT]?: GtfsRtService };

/** Server start: subscribes to the feed's events before the feed starts. */
export function startGtfsRt(feed: Feed): GtfsRtService {
  const holder = globalThis as Holder;
  holder[GTFS_RT]?.close();
  return (holder[GTFS_RT] = new GtfsRtService(feed, predictions(), gtfsRtConfig()));
}

function service(): GtfsRtService {
  return (globalThis as Holder)[GTFS_RT] ?? startGtfsRt(predictionsFeed());
}

// The predictions service was created on the process's feed: the GTFS-RT service reads the same one.
function predictionsFeed(): Feed {
  return predictions().feed;
}

/** Forgets the process's service (tests). */
export function stopGtfsRt(): void {
  const holder = globalThis as Holder;
  holder[GTFS_RT]?.close();
  delete holder[GTFS_RT];
}

/** A GET of /gtfs-rt/{kind}: ?format=json for the readable copy, protobuf otherwise. */
export function gtfsRtResponse(kind: GtfsRtKind, request: Request): Response {
  const format = new URL(request.url).searchParams.get('format');
  if (format !== null && format !== 'json' && format !== 'protobuf' && format !== 'pb') {
    return Response.json({ error: { status: 400, message: 'format must be json or protobuf (the default).' } }, { status: 400, headers: { 'Cache-Control': 'no-cache' } });
  }
  const f: GtfsRtFormat = format === 'json' ? 'json' : 'protobuf';
  return service().respond(kind, f, request.headers.get('if-none-match'));
}
