'use client';
import type { Health, Vehicle } from '@/lib/model';
import { estimateCounts, type BusPlacement } from '@/lib/placement/bus-placement';
import { budgetLabel, dataAgeS, meanTripLocationAgeS, UPSTREAM_STATE_LABELS, UPSTREAM_STATE_TONE } from '@/lib/view/health';
import { formatAgo, formatDuration } from '@/lib/view/format';

const DOT: Record<string, string> = {
  ok: 'bg-emerald-500',
  info: 'bg-sky-500',
  warning: 'bg-amber-500',
  error: 'bg-red-600',
};

const CAPABILITY_NAMES = { buses: 'buses', routes: 'routes', stops: 'stops', trips: 'trips', locations: 'GPS' } as const;

function Item({ label, value, title, emphasis }: { label: string; value: string; title?: string; emphasis?: boolean }) {
  return (
    <div className="flex min-w-0 items-baseline gap-1.5 whitespace-nowrap" title={title}>
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={`tabular-nums ${emphasis ? 'font-semibold text-amber-700 dark:text-amber-400' : 'font-medium'}`}>{value}</dd>
    </div>
  );
}

/**
 * The honest summary line: upstream state, plan and what it allows, budget spent, how old the data is
 * (ticking), and the mean age of bus positions against the best the budget allows.
 */
export function StatusBar({
  health,
  vehicles,
  placements,
  now,
  staleAfterS,
  className,
}: {
  health: Health;
  vehicles: Vehicle[];
  /** The buses on the map, when a map is shown: how many of them are estimates is said here. */
  placements?: readonly BusPlacement[];
  now: number;
  staleAfterS: number;
  className?: string;
}) {
  const tone = UPSTREAM_STATE_TONE[health.state];
  const age = dataAgeS(health, now);
  const meanAge = meanTripLocationAgeS(vehicles, now);
  const missing = (Object.keys(CAPABILITY_NAMES) as Array<keyof typeof CAPABILITY_NAMES>).filter((k) => !health.capabilities[k]);
  const bound = health.freshness.boundS;
  const counts = placements ? estimateCounts(placements) : null;
  return (
    <dl className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-800 dark:text-slate-200 ${className ?? ''}`} aria-label="Data status">
      <div className="flex items-center gap-1.5 whitespace-nowrap" title={health.message ?? undefined}>
        <dt className="sr-only">Upstream</dt>
        <span className={`inline-block size-2 rounded-full ${DOT[tone]}`} aria-hidden />
        <dd className="font-semibold">{UPSTREAM_STATE_LABELS[health.state]}</dd>
      </div>
      <Item
        label="Plan"
        value={`${health.plan ?? 'unknown'}${health.plan && missing.length ? ` · no ${missing.map((k) => CAPABILITY_NAMES[k]).join(', ')}` : ''}`}
        title={`Scopes: ${health.scopes.join(', ') || 'none'}`}
      />
      <Item label="Budget" value={budgetLabel(health)} title={`Feed share ${Math.round(health.budget.share * 100)}% · 429s: ${health.budget.rateLimited429}`} />
      <Item label="Data" value={age === null ? 'not yet received' : `updated ${formatAgo(age)}`} emphasis={age !== null && age > staleAfterS} />
      {health.capabilities.locations && (
        <Item
          label="Mean fix age"
          value={meanAge === null ? '—' : formatDuration(meanAge)}
          title={bound !== null ? `Best achievable with this budget: about ${formatDuration(bound)}` : undefined}
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
