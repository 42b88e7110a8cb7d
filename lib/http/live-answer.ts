import 'server-only';
import { encodeCompactDelta, encodeCompactFull, liveVersionTag, mergeLiveChanges, parseLiveVersionTag, type CompactRoster, type Health, type LiveChanges, type LiveDelta, type LiveSnapshot, type Vehicle } from '@/lib/model';
import type { StoredSnapshot } from '@/lib/fleet';
import { RECENT_VERSIONS } from '@/lib/fleet/snapshot-store';
import { CLIENT_ADDRESS_HEADER, CLIENT_PRINCIPAL_HEADER, clientKeyOf } from './client-key';
import { SlowParts } from './live-compact';
import { Rosters } from './live-roster';
import { ScopedViews, scopeKey } from './live-scope';
import { etagMatches, idSchema } from './responses';
import { chooseEncoding, encodeBody, type Encoding } from '@/lib/encoding/body-encoding';

export { chooseEncoding, type Encoding };

// GET /api/live as bytes: the full snapshot, or the delta since the browser's version, each serialised and
// compressed once per version and encoding however many viewers ask, and sent as they are; and the roster of the
// buses' names that the compact form's full answers name (`shape=roster`, made once per roster version). Framework-free:
// scripts/server/server.mjs answers /api/live with it before Next.js (whose App Router would strip Content-Encoding and
// compress the body again, and whose routing costs more CPU than the answer itself; see docs/serving.md).

/** What the feed offers: the newest version, and the step changes since an older one. */
export interface LiveSource {
  liveSnapshot(): StoredSnapshot;
  liveChangesSince(epoch: string, version: number): LiveChanges[] | null;
  /** `client` (lib/http/client-key) bounds the watches one viewer may hold. */
  watch(busId: number, client: string): boolean;
}

export interface LiveRequest {
  method: string;
  /** Path and query, as in the request line. */
  url: string;
  headers: {
    host?: string | string[];
    'if-none-match'?: string | string[];
    'accept-encoding'?: string | string[];
    [CLIENT_ADDRESS_HEADER]?: string | string[];
    /** Who the sign-in check found (lib/server/live-guard.ts); the address counts when absent. */
    [CLIENT_PRINCIPAL_HEADER]?: string | string[];
  };
  /**
   * The routes this viewer is limited to (a wall-display token made with `?routes=`), set by the sign-in check
   * (lib/server/live-guard.ts) and never from the request: its answers hold only those routes' buses and trips.
   */
  routes?: readonly string[] | null;
  /**
   * The query as the sign-in check read it (lib/server/live-guard.ts): the answer reads the same parse, never a
   * second one of its own that could disagree.
   */
  query?: URLSearchParams;
  /**
   * An administrator asks (set by the sign-in check, never from the request): the answer carries the full health
   * as `fullHealth` beside everyone's reduced one, under an ETag of its own.
   */
  fullHealth?: boolean;
}

/**
 * What a 200 answer of /api/live brings: the whole snapshot, the change since the viewer's version, or the roster
 * of the buses' names a compact answer names (?shape=roster).
 */
export type LiveAnswerKind = 'full' | 'delta' | 'roster';

export interface RawAnswer {
  status: number;
  /** A 200 answer's kind, for counting (lib/metrics); absent on every other answer. */
  kind?: LiveAnswerKind;
  /** Shared by every viewer given the same answer: never changed after it is made (frozen). */
  headers: Readonly<Record<string, string>>;
  /** null for HEAD, 204 and 304. */
  body: Buffer | null;
}

/**
 * One answer's bytes, each encoding made on first demand, and the whole 200 answer per encoding: every viewer
 * asking the same gets the same object, headers included (scripts/server/server.mjs adds its own to them once per object).
 */
class Encoded {
  private readonly byEncoding = new Map<Encoding, RawAnswer>();
  constructor(
    private readonly identity: Buffer,
    private readonly etag: string,
    /** Undefined for a roster (counted apart from the snapshot's answers). */
    private readonly kind: LiveAnswerKind | undefined,
  ) {}

  answer(encoding: Encoding): RawAnswer {
    let a = this.byEncoding.get(encoding);
    if (a) return a;
    const body = encodeBody(this.identity, encoding);
    const headers: Record<string, string> = { 'Cache-Control': 'no-cache', ETag: this.etag, Vary: 'Accept-Encoding' };
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
    a = Object.freeze({ status: 200, ...(this.kind && { kind: this.kind }), headers: Object.freeze(headers), body });
    this.byEncoding.set(encoding, a);
    return a;
  }
}

/**
 * The answers of the newest version: the full one and one delta per `since` asked for (a `since` that gets the
 * full snapshot points at the full one). Dropped when the version moves on (answers are always to the newest
 * version).
 */
class VersionAnswers {
  private tag = '';
  private answers = new Map<string, Encoded>();

  /** The answer under `key`, made by `make` on first demand: a body, or another answer of this version to share. */
  get(stored: StoredSnapshot, key: string, etag: string, kind: LiveAnswerKind, make: () => string | Encoded): Encoded {
    const tag = liveVersionTag(stored.snapshot.epoch, stored.snapshot.version);
    if (tag !== this.tag) {
      this.tag = tag;
      this.answers = new Map();
    }
    let e = this.answers.get(key);
    if (!e) {
      const made = make();
      e = typeof made === 'string' ? new Encoded(Buffer.from(made), etag, kind) : made;
      this.answers.set(key, e);
    }
    return e;
  }
}

const answers = new VersionAnswers();

function deltaBody(s: LiveSnapshot, since: number, changes: LiveChanges, fullHealth: Health | null = null): string {
  const delta: LiveDelta = { kind: 'delta', epoch: s.epoch, since, version: s.version, generatedAt: s.generatedAt, ...changes, health: s.health, thresholds: s.thresholds };
  if (fullHealth) delta.fullHealth = fullHealth;
  return JSON.stringify(delta);
}

/** An administrator's full answer: everyone's body with the full health added last (the body ends with its `}`). */
function withFullHealth(body: string, health: Health): string {
  return `${body.slice(0, -1)},"fullHealth":${JSON.stringify(health)}}`;
}

const scopedViews = new ScopedViews(RECENT_VERSIONS);

/**
 * The answer bytes for a viewer limited to some routes: their view in full, or the change from the view the
 * viewer holds (lib/http/live-scope.ts). Cached per version like everyone's, under the scope's key.
 */
function scopedEncoded(stored: StoredSnapshot, routes: readonly string[], key: string, since: { epoch: string; version: number } | null, etag: string, compact: boolean): Encoded {
  const view = scopedViews.view(key, routes, stored.snapshot);
  const changes = since === null ? null : scopedViews.changesSince(key, since.epoch, since.version, view);
  const c = compact ? 'c' : '';
  if (since !== null && changes !== null) {
    return answers.get(stored, `${c}s${key}:d${since.version}`, etag, 'delta', () => (compact ? JSON.stringify(encodeCompactDelta(view, since.version, changes)) : deltaBody(view, since.version, changes)));
  }
  return answers.get(stored, `${c}s${key}:full`, etag, 'full', () => JSON.stringify(compact ? encodeCompactFull(view, rosters.of(key, view.vehicles).version) : { kind: 'full', ...view }));
}

/** Which buses only moved, for compact deltas: brought to the newest version when a compact delta is made. */
const slowParts = new SlowParts();

/**
 * The rosters the compact form's full answers name (lib/http/live-roster.ts), each answered (and compressed) once
 * per roster version; their ETag names that version.
 */
const rosterEtag = (version: string) => `W/"r-${version}"`;
const rosters = new Rosters<Encoded>((version, body) => new Encoded(Buffer.from(body), rosterEtag(version), 'roster'));

/**
 * The roster of a page's first paint (lib/server/first-paint.ts): the one /api/live names for the same view, from the
 * same cache, so a page render neither hashes nor encodes the roster again.
 */
export function firstPaintRoster(routes: readonly string[] | null, vehicles: readonly Vehicle[]): { version: string; roster: CompactRoster } {
  return rosters.of(routes === null ? '' : scopeKey(routes), vehicles);
}

/**
 * `shape=compact` (lib/model/live-compact.ts), `shape=roster` (its roster, lib/model/live-roster.ts) or the JSON form
 * (absent, or `shape=json`); undefined for another value.
 */
function shapeOf(params: URLSearchParams): 'json' | 'compact' | 'roster' | undefined {
  const shape = params.get('shape');
  return shape === null || shape === 'json' ? 'json' : shape === 'compact' || shape === 'roster' ? shape : undefined;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' };

export function errorAnswer(status: number, message: string, extra: Record<string, string> = {}): RawAnswer {
  const body = Buffer.from(JSON.stringify({ error: { status, message } }));
  return { status, headers: { ...JSON_HEADERS, 'Content-Length': String(body.length), ...extra }, body };
}

export const FRAGMENT_MESSAGE = 'A request target never holds a fragment (#); this one was refused.';

/**
 * The query of a request target (path and query, as in the request line); null for a target holding `#`, which a
 * client never sends (a fragment stays in the browser) and which URL parsers read as a fragment's start while a
 * raw reading takes it into the query: the sign-in check and the answer would read two different questions.
 */
export function liveQuery(target: string): URLSearchParams | null {
  if (target.includes('#')) return null;
  const q = target.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
}

/**
 * The answer to one request of /api/live. `since=<epoch>-<version>` asks for a delta; a version of another
 * epoch, older than the store keeps, or not one this server wrote gets the full snapshot (the body's `kind`
 * says which). `watch=<busId>` raises that bus's polling priority.
 */
export function liveAnswer(source: LiveSource, req: LiveRequest): RawAnswer {
  if (req.method === 'OPTIONS') return { status: 204, headers: { Allow: 'GET, HEAD, OPTIONS' }, body: null };
  if (req.method !== 'GET' && req.method !== 'HEAD') return errorAnswer(405, `${req.method} is not allowed here; /api/live answers GET.`, { Allow: 'GET, HEAD, OPTIONS' });
  const params = req.query ?? liveQuery(req.url);
  if (params === null) return errorAnswer(400, FRAGMENT_MESSAGE);
  const watch = params.get('watch');
  if (watch !== null) {
    const id = idSchema('watch (a bus id)').safeParse(watch);
    if (!id.success) return errorAnswer(400, id.error.issues[0]?.message ?? 'watch (a bus id) is invalid');
    source.watch(id.data, clientKeyOf(req.headers[CLIENT_PRINCIPAL_HEADER], req.headers[CLIENT_ADDRESS_HEADER]));
  }
  const sinceRaw = params.get('since');
  const since = sinceRaw === null ? null : parseLiveVersionTag(sinceRaw);
  if (sinceRaw !== null && since === null) return errorAnswer(400, 'since must be a version this server sent (<epoch>-<version>, as in the ETag)');
  const shape = shapeOf(params);
  if (shape === undefined) return errorAnswer(400, 'shape must be json (the default), compact or roster');
  const compact = shape === 'compact';
  const stored = source.liveSnapshot();
  const { epoch, version } = stored.snapshot;
  const routes = req.routes ?? null;
  const key = routes === null ? null : scopeKey(routes);
  if (shape === 'roster') {
    if (since !== null) return errorAnswer(400, 'a roster is answered whole: shape=roster takes no since (roster=<version> asks for one version)');
    return rosterAnswer(req, params, stored, routes === null || key === null ? null : { routes, key });
  }
  // Wall tokens are never administrators: a limited view never carries the full health.
  const admin = req.fullHealth === true && key === null;
  // A limited view's ETag names its scope too, an administrator's says so, a compact answer too: the same version
  // is another answer.
  const etag = `W/"${liveVersionTag(epoch, version)}${key === null ? '' : `.${key}`}${admin ? '.a' : ''}${compact ? '.c' : ''}"`;
  if (etagMatches(first(req.headers['if-none-match']) ?? null, etag)) return { status: 304, headers: { 'Cache-Control': 'no-cache', ETag: etag, Vary: 'Accept-Encoding' }, body: null };

  // Followed at every version a compact answer is asked at, so that the next delta from it can send moves alone.
  if (compact) slowParts.advance(stored.snapshot, source);
  const p = `${admin ? 'a:' : ''}${compact ? 'c:' : ''}`;
  const health = admin ? stored.health : null;
  const full = () =>
    answers.get(stored, `${p}full`, etag, 'full', () =>
      compact ? JSON.stringify(encodeCompactFull(stored.snapshot, rosters.of('', stored.snapshot.vehicles).version, health)) : admin ? withFullHealth(stored.body, stored.health) : stored.body,
    );
  let encoded: Encoded;
  if (routes !== null && key !== null) encoded = scopedEncoded(stored, routes, key, since, etag, compact);
  else if (since === null) encoded = full();
  else {
    // Keyed by the whole version tag: a `since` of another epoch with the same number is another question. The
    // steps are looked up once per version and `since`, not per request.
    encoded = answers.get(stored, `${p}d${liveVersionTag(since.epoch, since.version)}`, etag, 'delta', () => {
      const steps = source.liveChangesSince(since.epoch, since.version);
      if (steps === null) return full();
      const changes = mergeLiveChanges(steps);
      if (!compact) return deltaBody(stored.snapshot, since.version, changes, health);
      return JSON.stringify(encodeCompactDelta(stored.snapshot, since.version, changes, (busId) => slowParts.unchangedSince(busId, since.version), health));
    });
  }
  const answer = encoded.answer(chooseEncoding(first(req.headers['accept-encoding'])));
  return req.method === 'HEAD' ? { ...answer, body: null } : answer;
}

/**
 * The roster of the viewer's view (everyone's, or its routes' for a wall token: never a bus it may not see): the one
 * of version `roster=` when it is still kept, else the newest (the browser compares versions and asks again).
 */
function rosterAnswer(req: LiveRequest, params: URLSearchParams, stored: StoredSnapshot, scope: { routes: readonly string[]; key: string } | null): RawAnswer {
  const view = scope === null ? stored.snapshot : scopedViews.view(scope.key, scope.routes, stored.snapshot);
  const scopeName = scope?.key ?? '';
  const wanted = params.get('roster');
  const made = (wanted === null ? undefined : rosters.kept(scopeName, wanted)) ?? rosters.of(scopeName, view.vehicles);
  const etag = rosterEtag(made.version);
  if (etagMatches(first(req.headers['if-none-match']) ?? null, etag)) return { status: 304, headers: { 'Cache-Control': 'no-cache', ETag: etag, Vary: 'Accept-Encoding' }, body: null };
  const answer = made.answer.answer(chooseEncoding(first(req.headers['accept-encoding'])));
  return req.method === 'HEAD' ? { ...answer, body: null } : answer;
}

/** The same answer as a Web Response, for callers that speak fetch's types (the integration tests). */
export function liveResponse(source: LiveSource, request: Request, opts: { fullHealth?: boolean } = {}): Response {
  const url = new URL(request.url);
  const a = liveAnswer(source, {
    method: request.method,
    url: url.pathname + url.search,
    fullHealth: opts.fullHealth,
    headers: {
      'if-none-match': request.headers.get('if-none-match') ?? undefined,
      'accept-encoding': request.headers.get('accept-encoding') ?? undefined,
      [CLIENT_ADDRESS_HEADER]: request.headers.get(CLIENT_ADDRESS_HEADER) ?? undefined,
    },
  });
  return new Response(a.body === null ? null : new Uint8Array(a.body), { status: a.status, headers: a.headers });
}

/** The /api/live handler: scripts/server/server.mjs answers with it (the application context's `live`, lib/server/start.ts). */
export type LiveHandler = (req: LiveRequest) => RawAnswer | Promise<RawAnswer>;
