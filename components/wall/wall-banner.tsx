import type { Banner } from '@/lib/client/health-status';

/**
 * The feed's banners sized for a room and kept calm: a wall has nobody to alarm, only viewers who should
 * know the figures are not current. It sits over the last data, never in place of it.
 */
export function WallBanner({ banners }: { banners: readonly Banner[] }) {
  if (banners.length === 0) return null;
  return (
    <div role="status" aria-label="Feed status" className="flex max-w-4xl flex-col gap-2 rounded-xl border border-amber-400/60 bg-amber-50/95 px-6 py-4 text-amber-950 shadow-lg dark:border-amber-500/40 dark:bg-slate-900/95 dark:text-amber-100">
      {banners.map((b) => (
        <p key={b.id} data-banner={b.id} className="text-2xl leading-snug">
          <span className="font-semibold">{b.title}.</span> <span className="text-xl opacity-90">{b.body}</span>
        </p>
      ))}
    </div>
  );
}
