// What the status bar and the banners say about the data's health. Pure: the components only lay it out.
import type { EpochMs, Health, LiveHealth, UpstreamState, Vehicle } from '@/lib/model';
import { locationAgeS, meanAgeS } from '@/lib/placement/ages';
import { hasPosition } from '@/lib/placement/bus';
import { formatAgo, formatClock, formatDuration, type DisplayZone } from './format';

export type BannerTone = 'error' | 'warning' | 'info';

export interface Banner {
  id: string;
  tone: BannerTone;
  title: string;
  body: string;
}

export const UPSTREAM_STATE_LABELS: Record<UpstreamState, string> = {
  starting: 'Starting',
  ok: 'Live',
  degraded: 'Degraded',
  'rate-limited': 'Rate-limited',
  unauthorized: 'Key rejected',
  forbidden: 'Access denied',
  unreachable: 'Unreachable',
};

export const UPSTREAM_STATE_TONE: Record<UpstreamState, BannerTone | 'ok'> = {
  starting: 'info',
  ok: 'ok',
  degraded: 'warning',
  'rate-limited': 'warning',
  unauthorized: 'error',
  forbidden: 'error',
  unreachable: 'error',
};

/** How the browser's own link to the Fleetmap server is doing. */
export interface ClientLink {
  /** navigator.onLine */
  online: boolean;
  /** The last /api/live request failed (network error or an error status). */
  fetchFailed: boolean;
  fetchErrorMessage: string | null;
  /** Seconds since the browser last received a snapshot; null before the first one. */
  sinceLastSnapshotS: number | null;
}

export function dataAgeS(health: Pick<LiveHealth, 'lastSuccessAt'>, now: EpochMs): number | null {
  return health.lastSuccessAt === null ? null : Math.max(0, (now - health.lastSuccessAt) / 1000);
}

function lastDataClause(link: ClientLink, health: LiveHealth | null, now: EpochMs): string {
  const age = health ? dataAgeS(health, now) : null;
  const since = age ?? link.sinceLastSnapshotS;
  return since === null ? 'No data has been received yet.' : `Showing the last data received (${formatAgo(since)}), every bus with its true age.`;
}

/** The server's own sentence when it sent one, else ours. */
function say(health: LiveHealth, fallback: string): string {
  return health.message || fallback;
}

/**
 * `zone`: the zone the resume time reads in (default: the browser's). `notes`: the sentences of rooms beside the
 * feed (the recorder), which only an administrator's answer carries (its full health).
 */
export function healthBanners(health: LiveHealth | null, link: ClientLink, now: EpochMs, zone?: DisplayZone, notes: readonly string[] = []): Banner[] {
  const banners: Banner[] = [];
  const shown = lastDataClause(link, health, now);
  if (!link.online) {
    banners.push({ id: 'offline', tone: 'error', title: 'This browser is offline', body: `${shown} Updates resume by themselves when the network is back.` });
  } else if (link.fetchFailed) {
    banners.push({
      id: 'server',
      tone: 'error',
      title: 'Cannot reach the Fleetmap server',
      body: `${link.fetchErrorMessage ? `${link.fetchErrorMessage}. ` : ''}${shown} Retrying every few seconds.`,
    });
  }
  if (!health) return banners;
  switch (health.state) {
    case 'unauthorized':
      banners.push({ id: 'unauthorized', tone: 'error', title: 'The Partner API rejected the integration key (401)', body: `${say(health, 'An administrator must configure a valid key.')} ${shown}` });
      break;
    case 'forbidden':
      banners.push({ id: 'forbidden', tone: 'error', title: 'The Partner API denied access (403)', body: `${say(health, "The key's plan or scopes do not allow this.")} ${shown}` });
      break;
    case 'rate-limited': {
      const until = health.budget.pausedUntil;
      const when = until !== null ? `Requests resume at ${formatClock(until, true, zone)} (in ${formatDuration(Math.max(0, (until - now) / 1000))}).` : 'Requests resume when the limit resets.';
      banners.push({ id: 'rate-limited', tone: 'warning', title: 'Partner API rate limit reached', body: `${when} ${shown}` });
      break;
    }
    case 'unreachable':
      banners.push({ id: 'unreachable', tone: 'error', title: 'The Partner API is not answering', body: `${say(health, 'Retrying automatically.')} ${shown}` });
      break;
    case 'degraded':
      banners.push({ id: 'degraded', tone: 'warning', title: 'Partner API partly failing', body: say(health, 'Some data may be older than usual.') });
      break;
    case 'starting':
      banners.push({ id: 'starting', tone: 'info', title: 'Connecting to the Partner API', body: say(health, 'The first data arrives within a few seconds.') });
      break;
    case 'ok':
      break;
  }
  if (health.coordination) {
    const { lostAt, dataAt } = health.coordination;
    banners.push({
      id: 'coordination',
      tone: 'warning',
      title: 'Coordination lost',
      body: `This server lost its link to the other instances ${formatAgo(Math.max(0, (now - lostAt) / 1000))}; the data shown was built ${formatAgo(Math.max(0, (now - dataAt) / 1000))}, every bus with its true age. Updates resume by themselves when the link returns.`,
    });
  }
  // Rooms beside the feed (the recorder) speak for themselves, one banner per sentence; the live map is unaffected.
  notes.forEach((note, i) => banners.push({ id: `note-${i}`, tone: 'warning', title: 'Note', body: note }));
  return banners;
}

/** `142/240 req/min`, or the used count alone while the limit is not known yet (the status page's full health). */
export function budgetLabel(health: Health): string {
  const { usedLastMinute, limit } = health.budget;
  return limit === null ? `${usedLastMinute} req/min` : `${usedLastMinute}/${limit} req/min`;
}

/** `59 % of the limit`: the share of the upstream's per-minute limit spent in the last minute. */
export function budgetShareLabel(health: LiveHealth): string {
  const { usedShare } = health.budget;
  return usedShare === null ? 'not known yet' : `${Math.round(usedShare * 100)} % of the limit`;
}

/** Mean fix age of positioned buses on active trips, as of `now`. */
export function meanTripLocationAgeS(vehicles: readonly Vehicle[], now: EpochMs): number | null {
  return meanAgeS(vehicles.filter((v) => v.trip && hasPosition(v)).map((v) => locationAgeS(v.gpsAt, now)));
}

/** Locations are known to be unavailable (the upstream said what the key may read, and it excludes them). */
export function lacksLocations(health: LiveHealth): boolean {
  return health.locations === false;
}

export function noLocationsReason(health: LiveHealth): string {
  if (health.level === 'standard') {
    return "This integration key is on the API Standard plan. The Partner API gives bus locations only to API Business keys with the gps:read scope, so no bus on the map is a GPS fix: each is placed along its route from its trip's schedule (a dashed ring).";
  }
  return "This integration key does not have the gps:read scope, so the Partner API gives no bus locations. No bus on the map is a GPS fix: each is placed along its route from its trip's schedule (a dashed ring).";
}
