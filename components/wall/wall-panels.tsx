// The wall's panels: plain components fed by the view, each rendered inside its own PanelBoundary.
import type { ActiveTrip } from '@/lib/view/trips';
import { routeLabel } from '@/lib/view/trips';
import type { DelayFigures } from '@/lib/view/delays';
import { formatShare } from '@/lib/view/delay-table';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/theme/theme';
import { formatAgo, formatClock, formatDelay } from '@/lib/view/format';
import type { WallRoute, WallView } from '@/lib/view/wall-view';

export function WallTitle({ view, requested }: { view: WallView | null; requested: readonly string[] }) {
  const plural = (n: number) => `${n} route${n === 1 ? '' : 's'} with active trips`;
  const nameOf = (r: WallRoute) => (r.name && r.name !== r.label ? r.name : null);
  let title = 'Whole network';
  let detail = view ? plural(view.routes.length) : '';
  if (view?.current) {
    title = `Route ${view.current.label}`;
    detail = [nameOf(view.current), `${view.rotation!.index + 1} of ${view.rotation!.count}`].filter(Boolean).join(' · ');
  } else if (requested.length === 1) {
    const only = view?.routes.length === 1 ? view.routes[0]! : null;
    title = `Route ${only?.label ?? requested[0]}`;
    detail = (only && nameOf(only)) ?? '';
  } else if (requested.length) {
    title = `Routes ${requested.join(', ')}`;
  }
  return (
    <div className="rounded-xl bg-white/85 px-6 py-4 shadow-lg backdrop-blur dark:bg-slate-900/85">
      <h1 className="text-5xl font-semibold tracking-tight" aria-live="polite">
        {title}
      </h1>
      {detail && <p className="mt-1 text-2xl text-slate-600 dark:text-slate-300">{detail}</p>}
      {view && view.idleRoutes.length > 0 && (
        <p className="mt-1 text-xl text-slate-500 dark:text-slate-400">No active trips on {view.idleRoutes.join(', ')} right now</p>
      )}
    </div>
  );
}

/** `now` is 0 until the browser clock is read (server rendering). */
export function WallClock({ now, ageS, agencyZone }: { now: number; ageS: number | null; agencyZone: string | null }) {
  return (
    <div className="text-right">
      {/* The agency's time, whatever the zone of the machine driving the screen (its browser's until the feed names one). */}
      <time aria-label="Clock" className="block text-7xl font-semibold tabular-nums">
        {now ? formatClock(now, false, agencyZone ?? undefined) : '--:--'}
      </time>
      <p className="text-xl text-slate-600 dark:text-slate-300" aria-label="Clock time zone">
        {agencyZone ?? 'local time'}
      </p>
      <p className="mt-1 text-2xl text-slate-600 tabular-nums dark:text-slate-300">
        Data <span aria-label="Data age">{formatAgo(ageS)}</span>
      </p>
    </div>
  );
}

function Tile({ label, value, detail, color }: { label: string; value: string; detail?: string; color?: string }) {
  return (
    <section aria-label={label} className="rounded-xl bg-slate-100 px-5 py-4 dark:bg-slate-900">
      <h2 className="flex items-center gap-2 text-2xl text-slate-600 dark:text-slate-300">
        {color && <span aria-hidden className="inline-block size-4 rounded-full" style={{ background: color }} />}
        {label}
      </h2>
      <p className="text-7xl font-semibold leading-tight tabular-nums" data-value>
        {value}
      </p>
      {detail && <p className="text-xl text-slate-600 dark:text-slate-400">{detail}</p>}
    </section>
  );
}

export function WallFigures({ figures, worst, theme }: { figures: DelayFigures; worst: readonly ActiveTrip[]; theme: Theme }) {
  const colors = DELAY_COLORS[theme];
  return (
    <div className="flex flex-col gap-4">
      <Tile
        label="Active trips"
        value={String(figures.activeTrips)}
        detail={figures.unknownDelay ? `${figures.unknownDelay} without a known delay` : undefined}
      />
      <Tile
        label="On time"
        value={formatShare(figures.onTimeShare)}
        detail={`${figures.onTime} of ${figures.knownDelay} with a known delay`}
        color={colors['on-time']}
      />
      <Tile label="Late" value={String(figures.late)} color={colors.late} />
      <section aria-label="Worst delays" className="rounded-xl bg-slate-100 px-5 py-4 dark:bg-slate-900">
        <h2 className="text-2xl text-slate-600 dark:text-slate-300">Worst delays</h2>
        {worst.length === 0 ? (
          <p className="mt-2 text-2xl text-slate-600 dark:text-slate-400">None known</p>
        ) : (
          <ol className="mt-2 flex flex-col gap-1">
            {worst.map((t) => (
              <li key={t.tripId} className="flex items-baseline justify-between gap-4 text-4xl font-semibold tabular-nums">
                <span className="min-w-0 truncate">
                  {routeLabel(t)}
                  {t.direction && <span className="ml-3 text-xl font-normal text-slate-600 dark:text-slate-400">{t.direction}</span>}
                </span>
                {/* The delay is what the row is for: the route and direction give way to it, it never wraps. */}
                <span className="shrink-0 whitespace-nowrap" style={{ color: (t.delayMinutes ?? 0) > 0 ? colors.late : undefined }}>
                  {formatDelay(t.delayMinutes)}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
