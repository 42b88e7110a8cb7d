// A chart on its own card: a title, and for assistive technology a one-sentence summary (the numbers are in a
// table beside it).

export const axisTick = { fill: 'currentColor', fontSize: 12 };
export const tooltipStyle = { background: 'var(--chart-tooltip-bg, #fff)', border: '1px solid #94a3b8', color: 'inherit' };

export function ChartFrame({ title, summary, children }: { title: string; summary: string; children: React.ReactNode }) {
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      {/* Charts are pictures to assistive technology; the summary carries the gist, the table the numbers. */}
      <div role="img" aria-label={summary} className="text-slate-600 dark:text-slate-300">
        {children}
      </div>
    </figure>
  );
}
