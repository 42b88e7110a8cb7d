'use client';

/** One figure of the board's totals row. */
export function Total({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 dark:border-slate-700 dark:bg-slate-900">
      <div className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300">
        {color && <span aria-hidden className="inline-block size-2.5 rounded-full" style={{ background: color }} />}
        {label}
      </div>
      <div className="text-2xl font-semibold tabular-nums" aria-label={label}>
        {value}
      </div>
    </div>
  );
}
