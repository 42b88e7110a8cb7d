import 'server-only';
import type { Feed } from '@/lib/fleet';
import type { PredictionService } from '@/lib/predictions';
import { gtfsRtConfig } from './config';
import { GtfsRtService, type GtfsRtFormat, type GtfsRtKind } from './service';

export { GtfsRtService, type GtfsRtKind, type GtfsRtFormat } from './service';
export { readGtfsRtConfig } from './config';

/**
 * Server start (lib/server/services.ts): subscribes to the feed's events before the feed starts, beside the
 * predictions it publishes; the application context keeps it (`app.services.gtfsRt`).
 */
export function startGtfsRt(feed: Feed, predictions: PredictionService): GtfsRtService {
  return new GtfsRtService(feed, predictions, gtfsRtConfig());
}

/** A GET of /gtfs-rt/{kind}: ?format=json for the readable copy, protobuf otherwise. */
export function gtfsRtResponse(service: GtfsRtService, kind: GtfsRtKind, request: Request): Response {
  const format = new URL(request.url).searchParams.get('format');
  if (format !== null && format !== 'json' && format !== 'protobuf' && format !== 'pb') {
    return Response.json({ error: { status: 400, message: 'format must be json or protobuf (the default).' } }, { status: 400, headers: { 'Cache-Control': 'no-cache' } });
  }
  const f: GtfsRtFormat = format === 'json' ? 'json' : 'protobuf';
  return service.respond(kind, f, request.headers.get('if-none-match'));
}
