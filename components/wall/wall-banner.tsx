import type { Banner } from '@/lib/view/health';
import { formatAgo } from '@/lib/view/format';

/**
 * The feed's banners sized for a room and kept calm: a wall has nobody to alarm, only viewers who should
 * know the figures are not current. So: each problem's title, and once the age of what is on screen (the
 * long explanations are for the dispatcher who can act on them). It sits over the last data, never in place of it.
 */
export function WallBanner({ banners, ageS }: { banners: readonly Banner[]; ageS: number | null }) {
  if (banners.length === 0) return null;
  return (
    <div role="status" aria-label="Feed status" className="flex max-w-4xl flex-col gap-1 rounded-xl border border-amber-400/60 bg-amber-50/95 px-6 py-4 text-amber-950 shadow-lg dark:border-amber-500/40 dark:bg-slate-900/95 dark:text-amber-100">
      {banners.map((b) => (
        <p key={b.id} data-banner={b.id} className="text-3xl font-semibold leading-snug">
          {b.title}.
        </p>
      ))}
      {ageS !== null && <p className="text-2xl">Showing the last data received, from {formatAgo(ageS)}.</p>}
    </div>
  );
}
