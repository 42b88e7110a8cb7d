'use client';
import type { LiveHealth, Vehicle } from '@/lib/model';
import { estimateCounts, type BusPlacement } from '@/lib/placement/bus-placement';
import { budgetShareLabel, dataAgeS, meanTripLocationAgeS, UPSTREAM_STATE_LABELS, UPSTREAM_STATE_TONE } from '@/lib/view/health';
import { formatAgo, formatClock, formatDuration, type DisplayZone } from '@/lib/view/format';

const DOT: Record<string, string> = {
  ok: 'bg-emerald-500',
  info: 'bg-sky-500',
  warning: 'bg-amber-500',
  error: 'bg-red-600',
};

const LEVEL_NAMES = { standard: 'API Standard', business: 'API Business' } as const;

function Item({ label, value, title, emphasis }: { label: string; value: string; title?: string; emphasis?: boolean }) {
  return (
    <div className="flex min-w-0 items-baseline gap-1.5 whitespace-nowrap" title={title}>
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={`tabular-nums ${emphasis ? 'font-semibold text-amber-700 dark:text-amber-400' : 'font-medium'}`}>{value}</dd>
    </div>
  );
}

/**
 * The honest summary line: upstream state (or that the data is what the store restored), the plan level and
 * whether it gives positions, the share of the budget spent, how old the data is (ticking), and the mean age of
 * bus positions. It reads the health every viewer gets (LiveHealth); the full one is the status page's.
 */
export function StatusBar({
  health,
  vehicles,
  placements,
  now,
  staleAfterS,
  className,
  zone,
}: {
  health: LiveHealth;
  vehicles: Vehicle[];
  /** The buses on the map, when a map is shown: how many of them are estimates is said here. */
  placements?: readonly BusPlacement[];
  now: number;
  staleAfterS: number;
  className?: string;
  /** The zone the restored time reads in (default: the browser's). */
  zone?: DisplayZone;
}) {
  const restored = health.restoredFrom ?? null;
  const tone = restored !== null ? 'info' : UPSTREAM_STATE_TONE[health.state];
  const age = dataAgeS(health, now);
  const meanAge = meanTripLocationAgeS(vehicles, now);
  const counts = placements ? estimateCounts(placements) : null;
  return (
    <dl className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-800 dark:text-slate-200 ${className ?? ''}`} aria-label="Data status">
      <div className="flex items-center gap-1.5 whitespace-nowrap" title={health.message ?? undefined}>
        <dt className="sr-only">Upstream</dt>
        <span className={`inline-block size-2 rounded-full ${DOT[tone]}`} aria-hidden />
        <dd className="font-semibold">{restored !== null ? `Restored from ${formatClock(restored, true, zone)}` : UPSTREAM_STATE_LABELS[health.state]}</dd>
      </div>
      <Item label="Plan" value={`${health.level ? LEVEL_NAMES[health.level] : 'unknown'}${health.locations === false ? ' · no GPS' : ''}`} />
      <Item label="Budget" value={budgetShareLabel(health)} title="Upstream requests in the last 60 s, as a share of the key's per-minute limit" />
      <Item label="Data" value={age === null ? 'not yet received' : `updated ${formatAgo(age)}`} emphasis={age !== null && age > staleAfterS} />
      {health.locations !== false && (
        <Item
          label="Mean fix age"
          value={meanAge === null ? '—' : formatDuration(meanAge)}
          emphasis={meanAge !== null && meanAge > staleAfterS}
        />
      )}
      {counts && placements && placements.length > 0 && (
        <Item
          label="Estimated"
          value={`${counts['gps-estimate'] + counts['schedule-estimate']} of ${placements.length} buses`}
          title={`From a fix: ${counts['gps-estimate']} · from the schedule: ${counts['schedule-estimate']} · at their last fix: ${counts.fix}`}
        />
      )}
    </dl>
  );
}
