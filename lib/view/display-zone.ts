// Which zone times are shown in. The timetable is the agency's, so by default every time on screen reads in the
// organization's zone (the one the feed uses for the upstream's zone-less timestamps); a person may switch to
// their browser's own zone, a choice kept per browser. Pure: the hook in lib/client/use-display-zone.ts stores it.
import type { Health, LiveHealth } from '@/lib/model';
import type { DisplayZone } from './format';

export type ZoneChoice = 'agency' | 'browser';
export const ZONE_CHOICE_STORAGE_KEY = 'fleetmap-time-zone';
export const DEFAULT_ZONE_CHOICE: ZoneChoice = 'agency';

export function isZoneChoice(v: unknown): v is ZoneChoice {
  return v === 'agency' || v === 'browser';
}

export interface ResolvedZone {
  /** What the formatters take; undefined is the browser's own zone. */
  zone: DisplayZone;
  /** The zone's name as shown: `America/New_York`, `UTC-05:00`. */
  name: string;
  /** Whose time it is; 'browser' too when the agency's zone is not known yet. */
  kind: ZoneChoice;
}

export function resolveDisplayZone(choice: ZoneChoice, agencyZone: string | null, browserZone: string): ResolvedZone {
  if (choice === 'agency' && agencyZone) return { zone: agencyZone, name: agencyZone, kind: 'agency' };
  return { zone: undefined, name: browserZone, kind: 'browser' };
}

/** `agency time, America/New_York` or `this browser's time, Europe/Paris`. */
export function zoneCaption(z: ResolvedZone): string {
  return `${z.kind === 'agency' ? 'agency time' : "this browser's time"}, ${z.name}`;
}

/**
 * The organization's zone as the feed knows it, or null while it does not: before the first GPS time has been
 * read (source 'default'), the feed's UTC stand-in is no one's time.
 */
export function agencyZoneOf(health: Pick<Health, 'timezone'> | Pick<LiveHealth, 'timezone'> | null | undefined): string | null {
  if (!health) return null;
  const tz = health.timezone;
  if ('source' in tz && tz.source === 'default') return null;
  return tz.zone;
}
