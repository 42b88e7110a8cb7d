import { z } from 'zod';
import { ROUTE_ACCESS, type RouteAccess } from '@/lib/auth/access';
import { fleetQuery, routesQuery, trackQuery } from '@/lib/http/history-params';
import { liveCompactDelta, liveCompactFull, liveRoster } from './live-compact-schemas';
import * as admin from './admin-schemas';
import * as hs from './history-schemas';
import * as s from './schemas';
import * as ss from './service-schemas';

// The OpenAPI 3.1 document of our API, served at /api/openapi.json. Every operation is one entry of OPERATIONS:
// its answers and bodies are the zod schemas of lib/openapi/*-schemas.ts and schemas.ts (checked against lib/model's types by the
// compiler), the history's query parameters the very schemas that validate them (lib/http/history-params.ts), and its
// security comes from ROUTE_ACCESS, the table proxy.ts enforces. A new route adds one entry here;
// lib/openapi/openapi.test.ts fails while a route file under app/api has none.

type Method = 'get' | 'post' | 'delete';

export interface Operation {
  /** The route as ROUTE_ACCESS names it (`/api/trips/[id]`). */
  route: keyof typeof ROUTE_ACCESS;
  method: Method;
  tag: string;
  summary: string;
  description?: string;
  /** Query parameters, as the zod object that validates them (its input side is documented). */
  query?: z.ZodObject | z.ZodType;
  body?: z.ZodType;
  /** Status -> what the answer holds: a schema (JSON), or a description alone (a redirect, bytes). */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((st) => [st, { description: ERROR_TEXT[st] ?? 'An error', schema: s.apiError }]));
const ERROR_TEXT: Record<number, string> = {
  400: 'A parameter is invalid; the message names it',
  404: 'Not found',
  429: 'Too many on-demand lookups from this client',
  502: 'The upstream refused the key or its plan',
  503: 'Not available now (the upstream, the store, or the server is starting); the message says which',
};

const liveQuery = z.object({
  since: z.string().regex(/^[0-9a-z]{1,32}-\d+$/).optional().describe('The ETag value last received (<epoch>-<version>): answer the change since it'),
  watch: z.string().regex(/^\d+$/).optional().describe('A bus id to poll first (dispatcher and above)'),
  shape: z
    .enum(['json', 'compact', 'roster'])
    .optional()
    .describe("compact: the same snapshot in columns, a tenth the size (docs/live-compact.md), under an ETag of its own, its buses' plates and names left to the roster its full answer names; roster: that roster"),
  roster: z.string().optional().describe('With shape=roster: the version a full compact answer named (the newest is answered when the server no longer keeps it)'),
});
const gtfsRtQuery = z.object({ format: z.enum(['json']).optional().describe('json: the same FeedMessage as JSON, for people') });
const headwaysQuery = z.object({ route: z.string().optional().describe('Route codes, comma separated; every route when absent') });
const exceptionsQuery = z.object({
  from: z.string().regex(/^\d+$/).optional().describe('Epoch ms: the exceptions of a past period (manager and above), with to'),
  to: z.string().regex(/^\d+$/).optional().describe('Epoch ms, with from'),
});
const signInBody = z.object({ name: z.string().min(1).max(64), password: z.string().min(1).max(1024), next: z.string().max(2048).optional() });
const createTokenBody = z.object({ name: z.string().min(1).max(80), routes: z.string().max(400).optional().describe('Route codes the wall is limited to, comma separated'), kind: z.enum(['wall', 'feed']).optional().describe('wall (default) or feed (a GTFS-Realtime consumer)') });
const webhookTargetBody = z.object({
  url: z.string().describe('https (http only on a loopback host)'),
  secret: z.string().min(16).describe('Signs every delivery (HMAC-SHA256); at least 16 characters'),
  rules: z.array(ss.exceptionRule).nullable().optional().describe('The rules it wants; all when absent, null or empty'),
  minSeverity: ss.exceptionSeverity.nullable().optional(),
});
const ackBody = z.object({ note: z.string().max(500).optional() });
const snoozeBody = z.object({ minutes: z.number().int().min(1).max(1440) });
const readBody = z.object({ ids: z.array(z.string().max(64)).max(1000) });

const liveExceptions = z.union([ss.liveExceptionsResponse, ss.exceptionHistoryResponse]);

const json = (description: string, schema: z.ZodType) => ({ description, schema });
/** Sign-in's routes with AUTH_MODE=none (lib/auth/handlers.ts). */
const signInOff = { 404: json('Sign-in is off (AUTH_MODE=none): there are no accounts, sessions or wall tokens', s.apiError) };

export const OPERATIONS: readonly Operation[] = [
  {
    route: '/api/live',
    method: 'get',
    tag: 'live',
    summary: 'The live snapshot, or the change since a version',
    description:
      'Polled every 5 s by every page (in the compact form, ?shape=compact). ETag W/"<epoch>-<version>" (W/"<epoch>-<version>.c" for the compact form); If-None-Match with the newest version gets a 304. Answered by the server before Next.js (scripts/server/server.mjs), compressed once per version.',
    query: liveQuery,
    responses: {
      200: {
        description: 'The whole snapshot (kind full), or the change since `since` (kind delta); with shape=compact, in the compact form; with shape=roster, the roster (ETag W/"r-<version>")',
        schema: z.union([s.liveFull, s.liveDelta, liveCompactFull, liveCompactDelta, liveRoster]),
      },
      304: { description: 'Nothing new since the ETag given' },
      ...errors(400),
    },
  },
  { route: '/api/network', method: 'get', tag: 'live', summary: 'The network as GeoJSON', responses: { 200: json('Route lines and stops', s.networkResponse) } },
  { route: '/api/routes', method: 'get', tag: 'live', summary: 'Every route', responses: { 200: json('The routes the feed holds', s.routesResponse), ...errors(503) } },
  { route: '/api/routes/[id]/stops', method: 'get', tag: 'live', summary: "A route's stops, in order", responses: { 200: json('The stops', s.routeStopsResponse), ...errors(400, 404, 429, 502, 503) } },
  { route: '/api/buses', method: 'get', tag: 'live', summary: 'Every bus of the organization', responses: { 200: json('The bus list the feed holds', s.busesResponse), ...errors(503) } },
  { route: '/api/buses/last-trips', method: 'get', tag: 'history', summary: 'When each bus was last on a trip, as recorded', responses: { 200: json('By bus id; recorded false without a recorder', hs.lastTripsResponse), ...errors(503) } },
  { route: '/api/trips/[id]', method: 'get', tag: 'live', summary: 'One trip, asked of the upstream on demand', responses: { 200: json('The trip', s.tripResponse), ...errors(400, 404, 429, 502, 503) } },
  { route: '/api/trips/[id]/predictions', method: 'get', tag: 'predictions', summary: "Arrival predictions at a trip's remaining stops", responses: { 200: json('The predictions', ss.tripPredictionsResponse), ...errors(400, 404, 429, 503) } },
  { route: '/api/stops/[id]/arrivals', method: 'get', tag: 'predictions', summary: 'Predicted arrivals at a stop', responses: { 200: json('The arrivals', ss.stopArrivalsResponse), ...errors(400, 404, 429, 503) } },
  { route: '/api/headways', method: 'get', tag: 'regularity', summary: 'Live headways per route and direction', query: headwaysQuery, responses: { 200: json('The headways', ss.headwaysResponse), ...errors(400) } },
  { route: '/api/exceptions', method: 'get', tag: 'exceptions', summary: 'Open exceptions, or those of a past period', query: exceptionsQuery, responses: { 200: json('The exceptions', liveExceptions), ...errors(400, 503) } },
  { route: '/api/exceptions/deliveries', method: 'get', tag: 'exceptions', summary: 'The webhook queue by state, and the dead deliveries', responses: { 200: json('The queue', ss.webhookDeliveriesResponse), ...errors(503) } },
  { route: '/api/exceptions/read', method: 'post', tag: 'exceptions', summary: 'Marks exceptions as read by the signed-in user', body: readBody, responses: { 204: { description: 'Marked' }, 200: { description: 'Marked' }, ...errors(400, 503) } },
  { route: '/api/exceptions/[id]/acknowledge', method: 'post', tag: 'exceptions', summary: 'Acknowledges an exception', body: ackBody, responses: { 200: json('The exception as it is now', ss.fleetException), ...errors(400, 404, 503) } },
  { route: '/api/exceptions/[id]/snooze', method: 'post', tag: 'exceptions', summary: 'Snoozes an exception', body: snoozeBody, responses: { 200: json('The exception as it is now', ss.fleetException), ...errors(400, 404, 503) } },
  { route: '/api/history/routes', method: 'get', tag: 'history', summary: 'Per-route delay figures over a period', query: routesQuery, responses: { 200: json('Per route, per day and by hour', hs.historyRoutesResponse), ...errors(400, 503) } },
  { route: '/api/history/trips/[id]', method: 'get', tag: 'history', summary: 'A recorded trip, its changes and trail', responses: { 200: json('The trip as recorded', hs.historyTripResponse), ...errors(400, 404, 503) } },
  { route: '/api/history/buses/[id]/track', method: 'get', tag: 'history', summary: "One bus's fixes in a window of at most 24 h", query: trackQuery, responses: { 200: json('The fixes', hs.busTrackResponse), ...errors(400, 503) } },
  { route: '/api/history/fleet', method: 'get', tag: 'history', summary: 'The fleet as recorded at a moment', query: fleetQuery, responses: { 200: json('Each bus at its last fix before then', hs.fleetMomentResponse), ...errors(400, 503) } },
  ...(['vehicle-positions', 'trip-updates'] as const).map(
    (feed): Operation => ({
      route: `/gtfs-rt/${feed}`,
      method: 'get',
      tag: 'gtfs-realtime',
      summary: `The GTFS-Realtime ${feed === 'vehicle-positions' ? 'VehiclePositions' : 'TripUpdates'} feed`,
      description: 'A FeedMessage in protobuf, encoded once per snapshot version; ?format=json gives a readable copy (docs/gtfs-realtime.md).',
      query: gtfsRtQuery,
      responses: { 200: { description: 'The FeedMessage', contentType: 'application/x-protobuf' } },
    }),
  ),
  { route: '/api/status', method: 'get', tag: 'operations', summary: "The upstream's health", responses: { 200: json('The health', s.health) } },
  { route: '/api/integration', method: 'get', tag: 'operations', summary: 'The integration: health, last hour, recorder, instance, build', responses: { 200: json('The status page', s.integrationResponse) } },
  { route: '/api/openapi.json', method: 'get', tag: 'operations', summary: 'This document', responses: { 200: { description: 'The OpenAPI 3.1 description of the API', contentType: 'application/json' } } },
  { route: '/api/health/live', method: 'get', tag: 'operations', summary: "A load balancer's liveness check", responses: { 200: json('Alive', z.object({ live: z.literal(true) })) } },
  {
    route: '/api/health/ready',
    method: 'get',
    tag: 'operations',
    summary: "A load balancer's readiness check",
    responses: Object.fromEntries([200, 503].map((st) => [st, json(st === 200 ? 'A snapshot is served' : 'No snapshot yet', z.object({ ready: z.boolean(), epoch: z.string(), version: z.number().int(), message: z.string() }))])),
  },
  { route: '/api/basemap/region.pmtiles', method: 'get', tag: 'live', summary: "The operator's PMTiles extract (MAP_PMTILES), in byte ranges", responses: { 200: { description: 'The archive', contentType: 'application/octet-stream' }, 206: { description: 'A byte range', contentType: 'application/octet-stream' }, ...errors(404) } },
  {
    route: '/api/auth/signin',
    method: 'post',
    tag: 'auth',
    summary: 'Signs in with a local account',
    description: 'A JSON body gets JSON answers and the session cookie; a form post gets redirects. Throttled per account and per address.',
    body: signInBody,
    responses: { 200: json('Signed in; Set-Cookie holds the session', z.object({ user: z.object({ name: z.string(), role: z.enum(['viewer', 'dispatcher', 'manager', 'admin']) }) })), 303: { description: 'A form post: to the page asked for, or back to /signin' }, ...errors(400), 401: json('Wrong name or password', s.apiError), 429: json('Throttled: too many failures', s.apiError) },
  },
  { route: '/api/auth/signout', method: 'post', tag: 'auth', summary: 'Ends the session', responses: { 303: { description: "To /signin, or to the OIDC provider's logout" } } },
  { route: '/api/auth/oidc/start', method: 'get', tag: 'auth', summary: 'Starts an OpenID Connect sign-in', responses: { 302: { description: 'To the provider' }, ...errors(503) } },
  { route: '/api/auth/oidc/callback', method: 'get', tag: 'auth', summary: "The OpenID Connect provider's return", responses: { 303: { description: 'Signed in, or back to /signin with the reason' } } },
  { route: '/api/admin/users', method: 'get', tag: 'admin', summary: 'Users and their sessions', responses: { ...signInOff, 200: json('The users', z.object({ users: z.array(admin.adminUser) })) } },
  { route: '/api/admin/users/[name]/sessions', method: 'delete', tag: 'admin', summary: "Ends every session of a user", responses: { ...signInOff, 200: json('How many ended', z.object({ user: z.string(), sessionsEnded: z.number().int() })), ...errors(404) } },
  { route: '/api/admin/tokens', method: 'get', tag: 'admin', summary: 'Wall display tokens', responses: { ...signInOff, 200: json('The tokens (never their secrets)', z.object({ tokens: z.array(admin.adminWallToken) })) } },
  { route: '/api/admin/tokens', method: 'post', tag: 'admin', summary: 'Creates a wall display token', body: createTokenBody, responses: { ...signInOff, 201: json('The token and its wall address, shown this once', admin.createdWallToken), ...errors(400) } },
  { route: '/api/admin/tokens/[id]', method: 'delete', tag: 'admin', summary: 'Revokes a wall display token', responses: { ...signInOff, 200: json('The token, revoked', z.object({ token: admin.adminWallToken })), ...errors(400, 404) } },
  { route: '/api/admin/webhooks', method: 'get', tag: 'admin', summary: 'Webhook targets added in the admin page', responses: { 200: json('The targets (secrets masked)', z.object({ targets: z.array(ss.adminWebhookTarget) })), ...errors(503) } },
  { route: '/api/admin/webhooks', method: 'post', tag: 'admin', summary: 'Adds a webhook target', body: webhookTargetBody, responses: { 201: json('The target (secret masked)', z.object({ target: ss.adminWebhookTarget })), ...errors(400, 503) } },
  { route: '/api/admin/webhooks/[id]', method: 'delete', tag: 'admin', summary: 'Removes a webhook target', responses: { 200: json('The target, removed', z.object({ target: ss.adminWebhookTarget })), ...errors(400, 404, 503) } },
  { route: '/api/admin/webhooks/[id]/test', method: 'post', tag: 'admin', summary: 'Sends one signed test delivery to a webhook target now', responses: { 200: json("The receiver's answer", ss.webhookTestResult), ...errors(400, 404, 503) } },
  { route: '/api/admin/audit', method: 'get', tag: 'admin', summary: 'The audit log, newest first', responses: { ...signInOff, 200: json('The entries', z.object({ entries: z.array(admin.adminAuditEntry) })) } },
];

/** `/api/trips/[id]` -> `/api/trips/{id}`. */
export const openApiPath = (route: string) => route.replace(/\[([^\]]+)\]/g, '{$1}');

const SECURITY_SCHEMES = {
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'fleetmap_session', description: 'A signed-in user\'s session (POST /api/auth/signin, or OpenID Connect). Not needed with AUTH_MODE=none on loopback.' },
  wallToken: { type: 'apiKey', in: 'cookie', name: 'fleetmap_wall', description: 'A wall display\'s token (created on /admin), exchanged for this cookie by /wall?token=…; it reads the wall\'s data and nothing else.' },
  feedToken: { type: 'http', scheme: 'bearer', description: 'A GTFS-Realtime consumer\'s feed token (created on /admin): it reads the feeds and nothing else.' },
  feedTokenQuery: { type: 'apiKey', in: 'query', name: 'token', description: 'The same feed token as ?token= (for consumers that cannot send a header).' },
};

function security(access: RouteAccess): Record<string, string[]>[] {
  if (access.role === 'public') return [];
  return [{ sessionCookie: [] }, ...(access.wall ? [{ wallToken: [] }] : []), ...(access.feed ? [{ feedToken: [] }, { feedTokenQuery: [] }] : [])];
}

/**
 * A $ref to the schema's component. A schema not registered yet (an operation's own wrapper, `{ users: [...] }`)
 * is registered under `name` first, so that z.toJSONSchema writes every component, with its references to the
 * others, in one pass.
 */
function refTo(schema: z.ZodType, name: string): Record<string, unknown> {
  let id = s.COMPONENTS.get(schema)?.id;
  if (!id) {
    id = name;
    s.COMPONENTS.add(schema, { id });
  }
  return { $ref: `#/components/schemas/${id}` };
}

function parameters(op: Operation): Record<string, unknown>[] {
  const path = [...op.route.matchAll(/\[([^\]]+)\]/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'id' ? { type: 'string', pattern: '^[1-9][0-9]{0,9}$' } : { type: 'string', minLength: 1 },
  }));
  const query: Record<string, unknown>[] = [];
  if (op.query) {
    const js = z.toJSONSchema(op.query, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, schema] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = schema;
      // A repeated parameter (`route`) is read as a list, empty when absent: never required.
      const list = rest.type === 'array';
      query.push({ name, in: 'query', required: !list && (js.required?.includes(name) ?? false), ...(description ? { description } : {}), schema: rest, ...(list ? { explode: true } : {}) });
    }
  }
  return [...path, ...query];
}

let built: Record<string, unknown> | null = null;

/** The document (built once per process: it depends on nothing but the code). */
export function openApiDocument(): Record<string, unknown> {
  if (built) return built;
  const paths: Record<string, Record<string, unknown>> = {};
  const denied = refTo(s.accessDenied, 'AccessDenied');
  for (const op of OPERATIONS) {
    const operationId = `${op.method}${openApiPath(op.route).replace(/^\/api/, '').replace(/[{}]/g, '').split(/[/.-]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`;
    const access = ROUTE_ACCESS[op.route] as RouteAccess;
    const params = parameters(op);
    const responses = Object.fromEntries(
      Object.entries(op.responses).map(([status, r]) => [
        status,
        { description: r.description, ...(r.schema ? { content: { 'application/json': { schema: refTo(r.schema, `${operationId}${status}`) } } } : r.contentType ? { content: { [r.contentType]: {} } } : {}) },
      ]),
    );
    if (access.role !== 'public') {
      responses['401'] ??= { description: 'No session (or wall token) where sign-in is on', content: { 'application/json': { schema: denied } } };
      responses['403'] ??= { description: 'A role too low for this route', content: { 'application/json': { schema: denied } } };
    }
    (paths[openApiPath(op.route)] ??= {})[op.method] = {
      operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      'x-fleetmap-role': access.role,
      ...(access.params ? { 'x-fleetmap-parameter-roles': access.params } : {}),
      security: security(access),
      ...(params.length ? { parameters: params } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: refTo(op.body, `${operationId}Body`) } } } } : {}),
      responses,
    };
  }
  const { schemas } = z.toJSONSchema(s.COMPONENTS, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Record<string, unknown>> };
  // Each component is named by its place in the document; an $id with a fragment is not valid JSON Schema 2020-12.
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Fleetmap API',
      version: '1',
      description:
        'The HTTP API Fleetmap\'s pages read: the live fleet, the network, history, exceptions, predictions and the administration of sign-in. Answers are JSON in the app model (camelCase, numbers as numbers, times as epoch milliseconds unless a field says otherwise). Who may call each operation is its x-fleetmap-role (viewer < dispatcher < manager < admin, or public); with AUTH_MODE=none on loopback nobody signs in. State-changing requests must come from Fleetmap\'s own origin (Origin header).',
    },
    servers: [{ url: '/' }],
    tags: ['live', 'history', 'regularity', 'exceptions', 'predictions', 'gtfs-realtime', 'operations', 'auth', 'admin'].map((name) => ({ name })),
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  };
  return built;
}

