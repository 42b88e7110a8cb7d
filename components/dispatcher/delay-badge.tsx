import type { DelayClass } from '@/lib/model';
import { DELAY_COLORS, DELAY_LABELS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/theme/theme';
import { formatDelay } from '@/lib/view/format';

export function DelayDot({ cls, theme, className }: { cls: DelayClass | 'none'; theme: Theme; className?: string }) {
  return <span aria-hidden className={`inline-block size-2.5 shrink-0 rounded-full ${className ?? ''}`} style={{ backgroundColor: DELAY_COLORS[theme][cls] }} />;
}

/** The delay in words and numbers: colour is a second cue, never the only one. */
export function DelayBadge({ cls, delayMinutes, theme, size = 'sm' }: { cls: DelayClass; delayMinutes: number | null; theme: Theme; size?: 'sm' | 'lg' }) {
  const big = size === 'lg';
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full border font-semibold tabular-nums whitespace-nowrap ${big ? 'px-2.5 py-1 text-sm' : 'px-2 py-0.5 text-xs'} ${
        cls === 'late' ? 'border-orange-300 bg-orange-50 text-orange-900 dark:border-orange-800 dark:bg-orange-950/60 dark:text-orange-100' : 'border-slate-200 bg-white text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100'
      }`}
      title={DELAY_LABELS[cls]}
    >
      <DelayDot cls={cls} theme={theme} />
      {delayMinutes === null ? DELAY_LABELS[cls] : formatDelay(delayMinutes)}
      {big && delayMinutes !== null && <span className="font-normal">{DELAY_LABELS[cls].toLowerCase()}</span>}
    </span>
  );
}
