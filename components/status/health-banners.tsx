'use client';
import { agencyZoneOf } from '@/lib/view/display-zone';
import type { Health, LiveHealth } from '@/lib/model';
import { useDisplayZone } from '@/lib/client/use-display-zone';
import { healthBanners, type BannerTone, type ClientLink } from '@/lib/view/health';

const TONE: Record<BannerTone, string> = {
  error: 'border-red-300 bg-red-50 text-red-950 dark:border-red-900 dark:bg-red-950/70 dark:text-red-100',
  warning: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100',
  info: 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950/60 dark:text-sky-100',
};

/**
 * One banner per problem: the browser offline, the Fleetmap server unreachable, and each upstream state
 * that is not plain `ok`. Errors are announced (role=alert); the rest politely (role=status).
 */
export function HealthBanners({
  health,
  full,
  link,
  now,
  className,
}: {
  health: LiveHealth | null;
  /** The full health, in an administrator's answers only: its notes (the recorder's) get banners too. */
  full?: Health | null;
  link: ClientLink;
  now: number;
  className?: string;
}) {
  const { zone } = useDisplayZone(agencyZoneOf(health));
  // An administrator's answer carries the full health: its sentence names the upstream's own reason, which the viewers'
  // sentence leaves out (finding 1 of the security review); both describe the same snapshot.
  const shown = health && full?.message ? { ...health, message: full.message } : health;
  const banners = healthBanners(shown, link, now, zone, full?.notes ?? []);
  if (banners.length === 0) return null;
  return (
    <div className={`flex flex-col gap-1 ${className ?? ''}`}>
      {banners.map((b) => (
        <div key={b.id} role={b.tone === 'error' ? 'alert' : 'status'} data-banner={b.id} className={`rounded-md border px-3 py-2 text-sm ${TONE[b.tone]}`}>
          <span className="font-semibold">{b.title}.</span> <span>{b.body}</span>
        </div>
      ))}
    </div>
  );
}
