// What a manager or a wall needs to know when the feed is not fine: one calm sentence, and the age of what is shown.
import type { Health } from '@/lib/model';
import { formatAgo } from '@/lib/client/location-age';

export interface FeedTrouble {
  tone: 'info' | 'warning';
  text: string;
}

const STATE_TEXT: Record<Exclude<Health['state'], 'ok'>, string> = {
  starting: 'The live feed is starting.',
  degraded: 'The transport data service is answering with errors; figures may lag.',
  'rate-limited': 'The transport data service asked us to slow down; updates resume shortly.',
  unauthorized: 'The transport data service rejected our key.',
  forbidden: 'Our key is not allowed to read some of the transport data.',
  unreachable: 'The transport data service is not answering.',
};

/**
 * null when all is well. `fetchFailed` is the browser failing to reach our own server; `health` is the server's
 * view of the upstream. Both keep the last data on screen, so the sentence always ends with its age.
 */
export function feedTrouble(health: Pick<Health, 'state' | 'message'> | null, fetchFailed: boolean, ageS: number | null): FeedTrouble | null {
  const age = ageS === null ? '' : ` Showing the last data, from ${formatAgo(ageS)}.`;
  if (!health) {
    return fetchFailed
      ? { tone: 'warning', text: 'Waiting for the Fleetmap server; retrying.' }
      : { tone: 'info', text: 'Loading live data…' };
  }
  if (fetchFailed) return { tone: 'warning', text: `Cannot reach the Fleetmap server; retrying.${age}` };
  if (health.state === 'ok') return null;
  if (health.state === 'starting') return { tone: 'info', text: health.message ?? STATE_TEXT.starting };
  return { tone: 'warning', text: `${health.message ?? STATE_TEXT[health.state]}${age}` };
}
