'use client';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { axisTick, ChartFrame, tooltipStyle } from '@/components/chart-frame';
import { formatClock, type DisplayZone } from '@/lib/view/format';
import { kindLabel, type BudgetSeries } from '@/lib/view/integration';

// Okabe–Ito: told apart with any colour vision; the 429s get vermillion alone.
const KIND_COLORS = ['#0072B2', '#009E73', '#E69F00', '#56B4E9', '#CC79A7', '#F0E442', '#000000', '#999999'];
const RATE_LIMITED_COLOR = '#D55E00';

/** Requests per minute stacked by kind over the last hour, the 429s as a line, the key's limit as a rule. */
export function BudgetChart({ series, limit, zone }: { series: BudgetSeries; limit: number | null; zone: DisplayZone }) {
  const { rows, kinds, totals, peak } = series;
  const summary = totals.requests
    ? `Requests per minute over the last hour by kind: ${totals.requests} in all, at most ${peak} in a minute${limit !== null ? ` against a limit of ${limit}` : ''}; ${totals.rateLimited429} answered 429.`
    : 'No upstream request in the last hour.';
  return (
    <ChartFrame title="Requests per minute by kind, and 429 answers" summary={summary}>
      {totals.requests ? (
        <ComposedChart responsive style={{ width: '100%', height: 280 }} data={rows} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b833" vertical={false} />
          <XAxis dataKey="at" tick={axisTick} tickFormatter={(at: number) => formatClock(at, false, zone)} interval={9} />
          <YAxis allowDecimals={false} tick={axisTick} width={40} />
          <Tooltip contentStyle={tooltipStyle} labelFormatter={(at) => formatClock(Number(at), false, zone)} />
          {/* Legend text in the page's colour: some series colours are too light to read as text. */}
          <Legend verticalAlign="top" height={28} formatter={(name) => <span className="text-slate-700 dark:text-slate-200">{name}</span>} />
          {kinds.map((k, i) => (
            <Bar key={k} dataKey={k} name={kindLabel(k)} stackId="r" fill={KIND_COLORS[i % KIND_COLORS.length]} isAnimationActive={false} />
          ))}
          <Line dataKey="rateLimited429" name="429 answers" stroke={RATE_LIMITED_COLOR} strokeWidth={2} dot={false} isAnimationActive={false} />
          {limit !== null && <ReferenceLine y={limit} stroke="#64748b" strokeDasharray="6 3" label={{ value: `limit ${limit}`, position: 'insideTopRight', fill: 'currentColor', fontSize: 12 }} />}
        </ComposedChart>
      ) : (
        <p className="py-10 text-center text-sm">No upstream request in the last hour.</p>
      )}
    </ChartFrame>
  );
}
