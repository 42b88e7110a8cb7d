'use client';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { DelayBin, RouteDelayRow } from '@/lib/view/delays';
import { formatShare } from '@/lib/view/delay-table';
import { DELAY_COLORS, DELAY_LABELS } from '@/lib/view/delay-palette';
import { axisTick, ChartFrame, tooltipStyle } from '@/components/chart-frame';

// The light palette reads on either page theme; the board's charts sit on their own card.
const COLORS = DELAY_COLORS.light;


export function DelayHistogramChart({ bins, unknown }: { bins: readonly DelayBin[]; unknown: number }) {
  const total = bins.reduce((s, b) => s + b.early + b.onTime + b.late, 0);
  const summary = total
    ? `Delay distribution of ${total} trips from ${bins[0]!.label} to ${bins[bins.length - 1]!.label} minutes; ${unknown} without a known delay.`
    : 'No trips with a known delay.';
  return (
    <ChartFrame title={`Delay distribution (trips per minute of delay${unknown ? `; ${unknown} unknown not shown` : ''})`} summary={summary}>
      {total ? (
        <BarChart responsive style={{ width: '100%', height: 260 }} data={bins as DelayBin[]} margin={{ top: 4, right: 8, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b833" vertical={false} />
          <XAxis dataKey="label" tick={axisTick} interval="preserveStartEnd" label={{ value: 'minutes', position: 'insideBottom', offset: -8, fill: 'currentColor', fontSize: 12 }} />
          <YAxis allowDecimals={false} tick={axisTick} width={36} />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fill: '#94a3b822' }} />
          <Legend verticalAlign="top" height={24} />
          <Bar dataKey="early" name={DELAY_LABELS.early} stackId="d" fill={COLORS.early} isAnimationActive={false} />
          <Bar dataKey="onTime" name={DELAY_LABELS['on-time']} stackId="d" fill={COLORS['on-time']} isAnimationActive={false} />
          <Bar dataKey="late" name={DELAY_LABELS.late} stackId="d" fill={COLORS.late} isAnimationActive={false} />
        </BarChart>
      ) : (
        <p className="py-10 text-center text-sm">No trips with a known delay.</p>
      )}
    </ChartFrame>
  );
}

export function OnTimeShareChart({ rows }: { rows: readonly RouteDelayRow[] }) {
  // In the table's order, so the chart reads alongside it; routes without a known delay have no bar.
  const data = rows.filter((r) => r.onTimeShare !== null).map((r) => ({ route: r.label, share: Math.round(r.onTimeShare! * 1000) / 10 }));
  const skipped = rows.length - data.length;
  const worst = data.reduce<(typeof data)[number] | null>((w, d) => (w === null || d.share < w.share ? d : w), null);
  const summary = worst
    ? `On-time share of ${data.length} routes; lowest ${worst.route} at ${formatShare(worst.share / 100)}.`
    : 'No route has a trip with a known delay.';
  return (
    <ChartFrame title={`On-time share per route${skipped ? ` (${skipped} without known delays not shown)` : ''}`} summary={summary}>
      {data.length ? (
        <BarChart responsive style={{ width: '100%', height: 260 }} data={data} margin={{ top: 4, right: 8, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b833" vertical={false} />
          <XAxis dataKey="route" tick={axisTick} interval={0} angle={-45} textAnchor="end" height={48} />
          <YAxis domain={[0, 100]} tick={axisTick} width={40} unit="%" />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fill: '#94a3b822' }} formatter={(v) => [`${Number(v).toFixed(1)}%`, 'On time']} />
          <Bar dataKey="share" name="On time" fill={COLORS['on-time']} isAnimationActive={false} />
        </BarChart>
      ) : (
        <p className="py-10 text-center text-sm">No route has a trip with a known delay.</p>
      )}
    </ChartFrame>
  );
}
