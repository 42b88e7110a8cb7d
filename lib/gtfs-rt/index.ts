import 'server-only';
import type { Feed } from '@/lib/fleet';
import type { PredictionService } from '@/lib/predictions';
import { gtfsRtConfig } from './config';
import { GtfsRtService, type GtfsRtAnswer, type GtfsRtFormat, type GtfsRtKind } from './service';

export { GtfsRtService, type GtfsRtAnswer, type GtfsRtKind, type GtfsRtFormat } from './service';
export { readGtfsRtConfig } from './config';

/**
 * Server start (lib/server/services.ts): subscribes to the feed's events before the feed starts, beside the
 * predictions it publishes; the application context keeps it (`app.services.gtfsRt`).
 */
export function startGtfsRt(feed: Feed, predictions: PredictionService): GtfsRtService {
  return new GtfsRtService(feed, predictions, gtfsRtConfig());
}

const FORMAT_MESSAGE = 'format must be json or protobuf (the default).';

/** ?format= read: json, protobuf, or null for a value this feed does not know. */
export function gtfsRtFormat(query: URLSearchParams): GtfsRtFormat | null {
  const format = query.get('format');
  if (format !== null && format !== 'json' && format !== 'protobuf' && format !== 'pb') return null;
  return format === 'json' ? 'json' : 'protobuf';
}

/**
 * A GET of /gtfs-rt/{kind} (server.mjs, before Next.js): ?format=json for the readable copy, protobuf otherwise (a
 * null query: none was given). Every answer carries its Content-Length.
 */
export function gtfsRtAnswer(service: GtfsRtService, kind: GtfsRtKind, query: URLSearchParams | null, ifNoneMatch: string | null, acceptEncoding?: string): GtfsRtAnswer | { status: 400; headers: Record<string, string>; body: Buffer } {
  const f = query === null ? 'protobuf' : gtfsRtFormat(query);
  if (f === null) {
    const body = Buffer.from(JSON.stringify({ error: { status: 400, message: FORMAT_MESSAGE } }));
    return { status: 400, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'Content-Length': String(body.length) }, body };
  }
  return service.answer(kind, f, ifNoneMatch, acceptEncoding);
}

/** The route handlers' answer (app/gtfs-rt/*): the same, as a Response. */
export function gtfsRtResponse(service: GtfsRtService, kind: GtfsRtKind, request: Request): Response {
  const f = gtfsRtFormat(new URL(request.url).searchParams);
  if (f === null) return Response.json({ error: { status: 400, message: FORMAT_MESSAGE } }, { status: 400, headers: { 'Cache-Control': 'no-cache' } });
  // Uncompressed: Next.js compresses a route's answer itself.
  return service.respond(kind, f, request.headers.get('if-none-match'));
}
