// The health every viewer of the live map gets, and the one sentence that says it. The full health (the key's
// plan and scopes, the budget by kind, the upstream's own error text, the notes of rooms beside the feed, how the
// time zone was decided) is for administrators: /api/status, /api/integration, and their own /api/live answers
// (`fullHealth`). A viewer or a wall display gets only what the status bar and the banners need.
import type { Capabilities, Health, UpstreamState } from './upstream-health';
import type { EpochMs, PlanLevel } from './transit';

export interface LiveHealth {
  state: UpstreamState;
  /** One sentence for people: what is wrong and what happens now; never the upstream's own text. */
  message: string;
  /** When the upstream last answered: the data's age. */
  lastSuccessAt: EpochMs | null;
  /** Mean age of the positions of buses on active trips, seconds, as of the snapshot. */
  meanFixAgeS: number | null;
  /** The key's plan level, when known. */
  level: PlanLevel | null;
  /** Whether the key may read bus locations; null until the upstream said. */
  locations: boolean | null;
  budget: {
    /** Share of the upstream's per-minute limit spent in the last 60 s (0..1); null while the limit is unknown. */
    usedShare: number | null;
    /** While paused after a 429: when requests may resume. */
    pausedUntil: EpochMs | null;
  };
  /** Several instances: set while this one cannot reach the others (Health.coordination). */
  coordination?: { lostAt: EpochMs; dataAt: EpochMs };
  /**
   * Data restored from the store at start, not yet refreshed by any upstream answer: when it was recorded. Every
   * position keeps its true age; the status bar says "restored from <time>" instead of "Live".
   */
  restoredFrom?: EpochMs;
  /** The zone times are shown in (null while unknown); the offset at the snapshot's time. */
  timezone: { zone: string | null; offsetMinutes: number | null };
}

type SentenceFacts = Pick<Health, 'state' | 'lastError' | 'capabilities'>;

/**
 * The health's sentence. `detail` (administrators') quotes the upstream's error text and names each capability
 * the key lacks; without it the sentence says only what a viewer can act on.
 */
export function healthSentence(h: SentenceFacts, now: EpochMs, detail: boolean): string {
  const { lastError, capabilities } = h;
  const said = (fallback: string) => (detail ? ` (${lastError?.message ?? fallback})` : '');
  switch (h.state) {
    case 'starting':
      return 'Connecting to the upstream API.';
    case 'unauthorized':
      return 'The upstream API rejected the API key (401); the key is re-checked periodically.';
    case 'forbidden':
      return "The upstream API refused the key's plan (403); the key is re-checked periodically.";
    case 'rate-limited':
      return "The upstream rate limit was hit; every request is paused until the upstream's Retry-After passes.";
    case 'unreachable':
      return `The upstream API ${lastError?.kind === 'contract' ? 'answers with data that cannot be read' : 'cannot be reached'}${said('no answer')}; retrying with backoff.`;
    case 'degraded':
      // A key that lost its locations says so here too: a later, unrelated error (a timeout) must not hide it.
      return `Some upstream requests failed ${Math.round((now - (lastError?.at ?? now)) / 1000)} s ago${said('unknown error')}; data is still flowing${lacking(capabilities, detail)}.`;
    case 'ok':
      return `Live data is flowing${lacking(capabilities, detail)}.`;
  }
}

/** What the key cannot read, as the end of a sentence ('' when it reads everything). */
function lacking(capabilities: Capabilities, detail: boolean): string {
  const missing = (Object.keys(capabilities) as (keyof Capabilities)[]).filter((k) => !capabilities[k]);
  if (missing.length === 0) return '';
  if (!detail) return missing.includes('locations') ? '; this key gives no bus positions, so trips are listed without them' : '';
  const noGps = missing.includes('locations') ? '. Bus positions need gps:read on the API Business plan; trips are listed without positions' : '';
  return `; this key cannot read ${missing.join(', ')}${noGps}`;
}

/** The viewers' health from the full one, as of `now` (the snapshot's time). */
export function liveHealthOf(h: Health, now: EpochMs, restoredFrom: EpochMs | null = null): LiveHealth {
  const { limit, usedLastMinute, pausedUntil } = h.budget;
  return {
    state: h.state,
    message: healthSentence(h, now, false),
    lastSuccessAt: h.lastSuccessAt,
    meanFixAgeS: h.freshness.meanAgeS,
    level: h.level,
    locations: h.plan === null ? null : h.capabilities.locations,
    budget: { usedShare: limit ? Math.min(1, usedLastMinute / limit) : null, pausedUntil },
    ...(h.coordination ? { coordination: h.coordination } : {}),
    ...(restoredFrom !== null ? { restoredFrom } : {}),
    timezone: { zone: h.timezone.source === 'default' ? null : h.timezone.zone, offsetMinutes: h.timezone.offsetMinutes },
  };
}
