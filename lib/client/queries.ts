'use client';
// One queryOptions per resource: the key, the fetcher and the polling interval live here and nowhere else.
import type { StopArrivalsResponse, TripPredictionsResponse } from '@/lib/model/predictions';
import { queryOptions } from '@tanstack/react-query';
import { applyCompactDelta, decodeCompactFull, decodeRoster, LIVE_COMPACT_SHAPE, LIVE_ROSTER_SHAPE, liveVersionTag, parseLiveVersionTag, type CompactAnswer, type CompactLiveWithRoster, type CompactRoster, type LiveRoster, type LiveSnapshot } from '@/lib/model';
import type {
  AccessDeniedReason,
  ApiErrorBody,
  BusesResponse,
  BusTrackResponse,
  DelayThresholds,
  ExceptionHistoryResponse,
  FleetMomentResponse,
  HeadwaysResponse,
  HistoryRoutesResponse,
  HistoryTripResponse,
  IntegrationResponse,
  LastTripsResponse,
  LiveExceptionsResponse,
  NetworkResponse,
  RouteStopsResponse,
  RoutesResponse,
  TripResponse,
  WebhookDeliveriesResponse,
} from '@/lib/model';

export const LIVE_POLL_MS = 5_000;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Set on a 401/403 from the sign-in guard. */
    readonly reason: AccessDeniedReason | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    let reason: AccessDeniedReason | null = null;
    try {
      const body = (await res.json()) as ApiErrorBody & { error?: { reason?: AccessDeniedReason } };
      if (body?.error?.message) message = body.error.message;
      reason = body?.error?.reason ?? null;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(res.status, message, reason);
  }
  return (await res.json()) as T;
}

/** The browser's feed asks for the compact form (lib/model/live-compact.ts, docs/live-compact.md). */
export function liveUrl(held: Pick<LiveSnapshot, 'epoch' | 'version'> | undefined, watchBusId?: number | null): string {
  const params = new URLSearchParams({ shape: 'compact' });
  if (watchBusId) params.set('watch', String(watchBusId));
  if (held) params.set('since', liveVersionTag(held.epoch, held.version));
  return `/api/live?${params}`;
}

/** Where a page keeps the roster its full answers name (lib/model/live-roster.ts): fetched once per version. */
export interface RosterHolder {
  roster: LiveRoster | undefined;
}

const rosterHolders = new WeakMap<object, RosterHolder>();

/** The roster holder of one query client (one page): the server's render and every page keep their own. */
export function rosterHolderOf(client: object): RosterHolder {
  let h = rosterHolders.get(client);
  if (!h) rosterHolders.set(client, (h = { roster: undefined }));
  return h;
}

/** The roster of `version` (the server answers its newest one when it no longer keeps that one). */
export async function fetchRoster(version: string, signal?: AbortSignal): Promise<LiveRoster> {
  const a = await getJson<CompactRoster>(`/api/live?${new URLSearchParams({ shape: 'roster', roster: version })}`, signal);
  if (a.shape !== LIVE_ROSTER_SHAPE) throw new ApiError(502, `/api/live answered a roster in a form this page does not read (${String(a.shape)}); reload the page.`);
  return decodeRoster(a);
}

/** How many full answers in a row may name a roster the server no longer has before the page gives up until its next poll. */
const ROSTER_TRIES = 3;

/**
 * The next snapshot: only what changed since the one held (the server answers in full when it cannot, for
 * instance after a restart), applied to it. Unchanged vehicles keep their objects. A full answer's buses' names
 * are in the roster it names: held in `rosters`, fetched when it holds another version.
 */
export async function fetchLive(held: LiveSnapshot | undefined, watchBusId: number | null | undefined, signal?: AbortSignal, rosters: RosterHolder = { roster: undefined }, tries = 1): Promise<LiveSnapshot> {
  // Only a snapshot this server could have sent names a version (a broken one is replaced by a full answer).
  const base = held && parseLiveVersionTag(liveVersionTag(held.epoch, held.version)) && Array.isArray(held.vehicles) && Array.isArray(held.unpositionedTrips) ? held : undefined;
  const answer = await getJson<CompactAnswer>(liveUrl(base, watchBusId), signal);
  if (answer.shape !== LIVE_COMPACT_SHAPE) throw new ApiError(502, `/api/live answered in a form this page does not read (${String(answer.shape)}); reload the page.`);
  if (answer.kind === 'delta') {
    const next = base ? applyCompactDelta(base, answer) : null;
    // A delta the held snapshot cannot take (it changed under the request): start again from a full one.
    return next ?? fetchLive(undefined, watchBusId, signal, rosters, tries);
  }
  if (rosters.roster?.version !== answer.roster) rosters.roster = await fetchRoster(answer.roster, signal);
  if (rosters.roster.version === answer.roster) return decodeCompactFull(answer, rosters.roster);
  // The names changed between the two answers and the server no longer keeps the roster this one named: the
  // roster now held is the newest, and so, most likely, is the next full answer's.
  if (tries >= ROSTER_TRIES) throw new ApiError(502, `/api/live named roster ${answer.roster}, which it no longer has; asking again at the next poll.`);
  return fetchLive(undefined, watchBusId, signal, rosters, tries + 1);
}

/** A full answer given with the page (lib/server/first-paint.ts): the snapshot, and its roster kept for the next ones. */
export function firstLiveSnapshot(first: CompactLiveWithRoster, client: object): LiveSnapshot {
  const roster = decodeRoster(first.roster);
  rosterHolderOf(client).roster = roster;
  return decodeCompactFull(first.live, roster);
}

export function liveQuery(watchBusId?: number | null) {
  // The watched bus is sent to the server (it raises that bus's polling priority) but is not part of
  // the key: every view shares one cached snapshot, which each poll moves on by a delta.
  return queryOptions({
    queryKey: ['live'],
    queryFn: ({ signal, client, queryKey }) => fetchLive(client.getQueryData<LiveSnapshot>(queryKey), watchBusId, signal, rosterHolderOf(client)),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: true,
    // Keep showing the last snapshot while a refetch fails: the health inside it tells the truth about age.
    retry: 1,
    staleTime: 1_000,
  });
}

/** Live headways of some routes (every route: null), polled with the live snapshot's beat. */
export function headwaysQuery(routes: readonly string[] | null) {
  const key = routes ? routes.join(',') : null;
  return queryOptions({
    queryKey: ['headways', key],
    queryFn: ({ signal }) => getJson<HeadwaysResponse>(key === null ? '/api/headways' : `/api/headways?route=${encodeURIComponent(key)}`, signal),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: true,
    retry: 1,
    staleTime: 1_000,
  });
}

export function tripQuery(tripId: number) {
  return queryOptions({
    queryKey: ['trip', tripId],
    queryFn: ({ signal }) => getJson<TripResponse>(`/api/trips/${tripId}`, signal),
    refetchInterval: 30_000,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });
}

/** A trip's predicted arrivals at its remaining stops (lib/predictions), refreshed as the buses move. */
export function tripPredictionsQuery(tripId: number) {
  return queryOptions({
    queryKey: ['trip-predictions', tripId],
    queryFn: ({ signal }) => getJson<TripPredictionsResponse>(`/api/trips/${tripId}/predictions`, signal),
    refetchInterval: 10_000,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });
}

/** The next arrivals at a physical stop, every route serving it. */
export function stopArrivalsQuery(stopId: number) {
  return queryOptions({
    queryKey: ['stop-arrivals', stopId],
    queryFn: ({ signal }) => getJson<StopArrivalsResponse>(`/api/stops/${stopId}/arrivals`, signal),
    refetchInterval: 10_000,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });
}

export function routesQuery() {
  return queryOptions({
    queryKey: ['routes'],
    queryFn: ({ signal }) => getJson<RoutesResponse>('/api/routes', signal),
    staleTime: 5 * 60_000,
    refetchInterval: 5 * 60_000,
  });
}

export function routeStopsQuery(routeId: number) {
  return queryOptions({
    queryKey: ['route-stops', routeId],
    queryFn: ({ signal }) => getJson<RouteStopsResponse>(`/api/routes/${routeId}/stops`, signal),
    staleTime: 10 * 60_000,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });
}

const BUSES_LOADING_POLL_MS = 5_000;

export function busesQuery() {
  return queryOptions({
    queryKey: ['buses'],
    queryFn: ({ signal }) => getJson<BusesResponse>('/api/buses', signal),
    staleTime: 60_000,
    // Until the feed has listed the buses once (fetchedAt null) the list is asked for again soon, not in 2 minutes.
    refetchInterval: (q) => (q.state.data && q.state.data.fetchedAt !== null ? 2 * 60_000 : BUSES_LOADING_POLL_MS),
  });
}

/** Each bus's last trip from history (or that none is recorded here); it changes slowly. */
export function lastTripsQuery() {
  return queryOptions({
    queryKey: ['last-trips'],
    queryFn: ({ signal }) => getJson<LastTripsResponse>('/api/buses/last-trips', signal),
    staleTime: 60_000,
    refetchInterval: 2 * 60_000,
    retry: 1,
  });
}

/** The status page's data: health, the last hour of upstream requests and errors, recorder, instance, build. */
export function integrationQuery() {
  return queryOptions({
    queryKey: ['integration'],
    queryFn: ({ signal }) => getJson<IntegrationResponse>('/api/integration', signal),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: true,
    retry: 1,
  });
}

export const NETWORK_LOADING_POLL_MS = 10_000;
export const NETWORK_POLL_MS = 10 * 60_000;

/**
 * Whether the network may still grow soon: no answer yet, routes not listed yet, or stops still loading.
 * (An empty network taken as complete stayed on screen, and the full one arrived in the heap of a running
 * wall, ten minutes later.) A listed network with no routes at all is complete: that organization has none.
 */
export function networkIncomplete(data: Pick<NetworkResponse, 'pendingRoutes' | 'routesListed'> | undefined): boolean {
  return !data || !data.routesListed || data.pendingRoutes > 0;
}

export function networkQuery() {
  return queryOptions({
    queryKey: ['network'],
    queryFn: ({ signal }) => getJson<NetworkResponse>('/api/network', signal),
    // Refetch while the feed is still loading; once complete the network rarely changes.
    refetchInterval: (q) => (networkIncomplete(q.state.data) ? NETWORK_LOADING_POLL_MS : NETWORK_POLL_MS),
    staleTime: 60_000,
  });
}

// --- History (/api/history) ---------------------------------------------------------------------------------

const HISTORY_RETRY = (count: number, err: Error) => !(err instanceof ApiError && err.status < 500) && count < 2;

/** A period's per-route figures; today's part changes as trips run, so a period that includes today refreshes. */
export function historyRoutesQuery(range: { from: string; to: string }, thresholds: DelayThresholds, includesToday: boolean, routeId: number | null = null) {
  const qs = new URLSearchParams({ from: range.from, to: range.to, lateMin: String(thresholds.lateMin), earlyMin: String(thresholds.earlyMin) });
  if (routeId !== null) qs.set('route', String(routeId));
  return queryOptions({
    queryKey: ['history-routes', range.from, range.to, thresholds.lateMin, thresholds.earlyMin, routeId],
    queryFn: ({ signal }) => getJson<HistoryRoutesResponse>(`/api/history/routes?${qs}`, signal),
    refetchInterval: includesToday ? 60_000 : false,
    staleTime: includesToday ? 30_000 : 10 * 60_000,
    retry: HISTORY_RETRY,
  });
}

/** A trip's recorded delay changes and trail; refreshed while the trip may still run. */
export function historyTripQuery(tripId: number, running: boolean) {
  return queryOptions({
    queryKey: ['history-trip', tripId],
    queryFn: ({ signal }) => getJson<HistoryTripResponse>(`/api/history/trips/${tripId}`, signal),
    refetchInterval: running ? 15_000 : false,
    retry: HISTORY_RETRY,
  });
}

export function historyFleetQuery(at: number, routeId: number | null) {
  const qs = new URLSearchParams({ at: new Date(at).toISOString() });
  if (routeId !== null) qs.set('route', String(routeId));
  return queryOptions({
    queryKey: ['history-fleet', at, routeId],
    queryFn: ({ signal }) => getJson<FleetMomentResponse>(`/api/history/fleet?${qs}`, signal),
    staleTime: Infinity,
    retry: HISTORY_RETRY,
  });
}

export function busTrackQuery(busId: number, from: number, to: number) {
  const qs = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  return queryOptions({
    queryKey: ['bus-track', busId, from, to],
    queryFn: ({ signal }) => getJson<BusTrackResponse>(`/api/history/buses/${busId}/track?${qs}`, signal),
    staleTime: 60_000,
    retry: HISTORY_RETRY,
  });
}

/** The live exceptions (lib/exceptions): the dispatcher's panel, the wall's counts and /status read this one. */
export function exceptionsQuery() {
  return queryOptions({
    queryKey: ['exceptions'],
    queryFn: ({ signal }) => getJson<LiveExceptionsResponse>('/api/exceptions', signal),
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: true,
    retry: 1,
  });
}

/** Exceptions opened in a period (managers: /exceptions). */
export function exceptionHistoryQuery(from: number, to: number) {
  return queryOptions({
    queryKey: ['exception-history', from, to],
    queryFn: ({ signal }) => getJson<ExceptionHistoryResponse>(`/api/exceptions?${new URLSearchParams({ from: String(from), to: String(to) })}`, signal),
    staleTime: 60_000,
    retry: HISTORY_RETRY,
  });
}

/** Dead webhook deliveries and the queue's counts by state (admins: /status). */
export function webhookDeliveriesQuery() {
  return queryOptions({
    queryKey: ['webhook-deliveries'],
    queryFn: ({ signal }) => getJson<WebhookDeliveriesResponse>('/api/exceptions/deliveries', signal),
    refetchInterval: 30_000,
  });
}

/** A dispatcher's action on an exception (acknowledge, snooze) or a viewer's read marks; throws ApiError. */
export async function postExceptionAction(path: string, body: unknown): Promise<void> {
  const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) {
    const parsed = (await res.json().catch(() => null)) as ApiErrorBody | null;
    throw new ApiError(res.status, parsed?.error?.message ?? `${res.status} ${res.statusText}`);
  }
}
