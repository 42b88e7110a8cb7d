import type { FeedTrouble } from '@/lib/stats/feed-trouble';

/** A calm line over the last data: never replaces it. `size="wall"` is for reading across a room. */
export function FeedNotice({ trouble, size = 'page' }: { trouble: FeedTrouble | null; size?: 'page' | 'wall' }) {
  if (!trouble) return null;
  const tone =
    trouble.tone === 'warning'
      ? 'border-amber-400/70 bg-amber-50 text-amber-950 dark:border-amber-500/50 dark:bg-amber-950/80 dark:text-amber-100'
      : 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-600/50 dark:bg-sky-950/80 dark:text-sky-100';
  const scale = size === 'wall' ? 'px-6 py-3 text-2xl' : 'px-3 py-2 text-sm';
  return (
    <div role="status" aria-label="Feed status" className={`rounded-lg border ${tone} ${scale}`}>
      {trouble.text}
    </div>
  );
}
