import 'server-only';
import type { transit_realtime } from 'gtfs-realtime-bindings';
import type { Feed } from '@/lib/fleet';
import type { PredictionService } from '@/lib/predictions';
import { chooseEncoding, encodeBody, type Encoding } from '@/lib/encoding/body-encoding';
import { etagMatches } from '@/lib/model/etag';
import { feedHeader, type FeedSource } from './build';
import { EntityCache } from './cache';
import { encodeWithHeader, toJson } from './encode';
import { gtfsIds, type GtfsIdConfig, type GtfsIds } from './ids';

// The GTFS-Realtime feeds as served: built from the newest snapshot version and its predictions, encoded once per
// version and format, answered with an ETag (304 when the consumer has it). The header's timestamp is the snapshot's
// time and never goes backwards; should a version's time equal (or precede) the previous one's while its content
// differs (a restart or a new leader with another clock), it moves one second past it (validator rules E017, E018).
// Each feed keeps its entities' bytes between versions (cache.ts): only the buses and trips whose inputs changed are
// built and encoded again. As /api/live's (lib/http/live-answer.ts), each version's answer is compressed once per
// encoding the consumers accept (gzip, br) on first demand, and every consumer of that version, format and encoding
// gets the same bytes and the same frozen headers (Content-Length included): a request costs no work but sending.

export type GtfsRtKind = 'vehicle-positions' | 'trip-updates';
export type GtfsRtFormat = 'protobuf' | 'json';

interface Encoded {
  /** The uncompressed body. */
  body: Buffer;
  etag: string;
  contentType: string;
  /** The 200 answer per encoding, made on first demand (frozen: every caller of this version gets the same). */
  answers: Partial<Record<Encoding, GtfsRtAnswer>>;
  /** The 304 answer's headers. */
  notModified: Readonly<Record<string, string>>;
}

/** A feed's answer before it is a Response: server.mjs sends it as it is (lib/server/gtfs-rt-guard.ts). */
export interface GtfsRtAnswer {
  status: 200 | 304;
  headers: Readonly<Record<string, string>>;
  /** null for 304. */
  body: Buffer | null;
}

interface KindState {
  /** The snapshot's epoch-version the encodings below are for. */
  key: string;
  byFormat: Partial<Record<GtfsRtFormat, Encoded>>;
  header: transit_realtime.IFeedHeader;
  entities: Uint8Array;
  leftOut: number;
}

export class GtfsRtService {
  private tripDates = new Map<number, string | null>();
  private readonly state = new Map<GtfsRtKind, KindState>();
  private readonly caches: Record<GtfsRtKind, EntityCache> = { 'vehicle-positions': new EntityCache(), 'trip-updates': new EntityCache() };
  /** Made once: the caches reuse nothing when the ids object changes. */
  private readonly ids: GtfsIds;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: Feed,
    private readonly predictions: PredictionService,
    idConfig: GtfsIdConfig,
  ) {
    this.ids = gtfsIds(idConfig);
    // trip_date comes with /trips/active only (the snapshot's trips do not carry it).
    this.unsubscribe = feed.events.on('trips', (e) => {
      this.tripDates = new Map(e.trips.map((t) => [t.id, t.tripDate]));
    });
  }

  close(): void {
    this.unsubscribe();
  }

  /** The newest version's message (built once per version). */
  current(kind: GtfsRtKind): KindState {
    const set = this.predictions.predictionSet();
    const snap = set.snapshot;
    const key = set.key;
    const prev = this.state.get(kind);
    if (prev?.key === key) return prev;
    const source: FeedSource = {
      at: snap.generatedAt,
      vehicles: snap.vehicles,
      predictions: set.trips,
      tripDate: (id) => this.tripDates.get(id) ?? null,
      timeRule: this.feed.timeRule(),
      ids: this.ids,
    };
    const cache = this.caches[kind];
    const built = kind === 'vehicle-positions' ? cache.vehiclePositions(source) : cache.tripUpdates(source);
    const entities = built.entities;
    const header = feedHeader(snap.generatedAt);
    let ts = Number(header.timestamp);
    if (prev) {
      const last = Number(prev.header.timestamp);
      const same = Buffer.from(entities).equals(Buffer.from(prev.entities));
      if (ts < last || (ts === last && !same)) ts = same ? last : last + 1;
    }
    header.timestamp = ts;
    const next: KindState = { key, byFormat: {}, header, entities, leftOut: built.leftOut };
    this.state.set(kind, next);
    return next;
  }

  /**
   * The feed's answer to a GET: protobuf or its JSON copy, compressed as `acceptEncoding` allows, 304 when
   * If-None-Match names this version.
   */
  answer(kind: GtfsRtKind, format: GtfsRtFormat, ifNoneMatch: string | null, acceptEncoding?: string): GtfsRtAnswer {
    const s = this.current(kind);
    let enc = s.byFormat[format];
    if (!enc) {
      const etag = `"gtfs-rt-${kind}-${format}-${s.key}-${String(s.header.timestamp)}"`;
      const bytes = s.byFormat.protobuf?.body ?? encodeWithHeader(s.header, s.entities);
      const contentType = format === 'json' ? 'application/json; charset=utf-8' : 'application/x-protobuf';
      const notModified = Object.freeze({ ETag: etag, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding', 'Content-Type': contentType });
      enc = s.byFormat[format] = { etag, contentType, notModified, answers: {}, body: format === 'json' ? Buffer.from(toJson(bytes)) : bytes };
    }
    if (etagMatches(ifNoneMatch, enc.etag)) return { status: 304, headers: enc.notModified, body: null };
    const encoding = chooseEncoding(acceptEncoding);
    let a = enc.answers[encoding];
    if (!a) {
      const body = encodeBody(enc.body, encoding);
      const headers: Record<string, string> = { ETag: enc.etag, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding', 'Content-Type': enc.contentType };
      if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
      headers['Content-Length'] = String(body.length);
      a = enc.answers[encoding] = Object.freeze({ status: 200, headers: Object.freeze(headers), body });
    }
    return a;
  }

  /** The same answer as a Response (the route handlers). */
  respond(kind: GtfsRtKind, format: GtfsRtFormat, ifNoneMatch: string | null, acceptEncoding?: string): Response {
    const a = this.answer(kind, format, ifNoneMatch, acceptEncoding);
    return new Response(a.body === null ? null : new Uint8Array(a.body), { status: a.status, headers: a.headers });
  }
}
