'use client';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistoryRoutesResponse } from '@/lib/model';
import type { DelayBin, RouteDelayRow } from '@/lib/view/delays';
import { formatMinutes, formatShare } from '@/lib/view/delay-table';
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

/** A period's trend: on-time share and p90 delay per service date, for the routes in view. */
export function DelayTrendChart({ days }: { days: HistoryRoutesResponse['days'] }) {
  const data = days.map((d) => ({
    date: d.date.slice(5),
    share: d.figures.onTimeShare === null ? null : Math.round(d.figures.onTimeShare * 1000) / 10,
    p90: d.figures.p90Min,
  }));
  const known = days.filter((d) => d.figures.onTimeShare !== null);
  const summary = known.length
    ? `On-time share and p90 delay over ${days.length} service days, from ${formatShare(known[0]!.figures.onTimeShare)} on ${known[0]!.date} to ${formatShare(known[known.length - 1]!.figures.onTimeShare)} on ${known[known.length - 1]!.date}.`
    : 'No recorded trip with a known delay in this period.';
  return (
    <ChartFrame title="Trend per service day (on-time share, p90 delay)" summary={summary}>
      {known.length ? (
        <LineChart responsive style={{ width: '100%', height: 260 }} data={data} margin={{ top: 4, right: 8, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b833" vertical={false} />
          <XAxis dataKey="date" tick={axisTick} />
          <YAxis yAxisId="share" domain={[0, 100]} tick={axisTick} width={40} unit="%" />
          <YAxis yAxisId="p90" orientation="right" tick={axisTick} width={40} unit=" min" />
          <Tooltip contentStyle={tooltipStyle} />
          <Legend verticalAlign="top" height={24} />
          <Line yAxisId="share" dataKey="share" name="On-time share (%)" stroke={COLORS['on-time']} dot isAnimationActive={false} connectNulls={false} />
          <Line yAxisId="p90" dataKey="p90" name="p90 delay (min)" stroke={COLORS.late} dot isAnimationActive={false} connectNulls={false} />
        </LineChart>
      ) : (
        <p className="py-10 text-center text-sm">No recorded trip with a known delay in this period.</p>
      )}
    </ChartFrame>
  );
}

/** Mean delay by hour of planned departure (agency time) over the period. */
export function HourProfileChart({ hours }: { hours: HistoryRoutesResponse['hours'] }) {
  const data = hours.map((h) => ({ hour: `${String(h.hour).padStart(2, '0')}:00`, value: Math.round(h.meanMin * 10) / 10, trips: h.trips }));
  const worst = hours.reduce<(typeof hours)[number] | null>((w, h) => (w === null || h.meanMin > w.meanMin ? h : w), null);
  const summary = worst ? `Mean delay by hour of departure; worst at ${worst.hour}:00 with ${formatMinutes(worst.meanMin)} minutes.` : 'No departures with a known delay.';
  return <HourBars title="Mean delay by hour of planned departure" summary={summary} data={data} name="Mean delay (min)" empty="No departures with a known delay." />;
}

/** Minutes per local hour of the day as bars (the board's hour charts). */
function HourBars({ title, summary, data, name, empty }: { title: string; summary: string; data: { hour: string; value: number | null }[]; name: string; empty: string }) {
  return (
    <ChartFrame title={title} summary={summary}>
      {data.some((d) => d.value !== null) ? (
        <BarChart responsive style={{ width: '100%', height: 260 }} data={data} margin={{ top: 4, right: 8, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b833" vertical={false} />
          <XAxis dataKey="hour" tick={axisTick} interval="preserveStartEnd" />
          <YAxis tick={axisTick} width={40} unit=" min" />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fill: '#94a3b822' }} />
          <Bar dataKey="value" name={name} fill={COLORS.late} isAnimationActive={false} />
        </BarChart>
      ) : (
        <p className="py-10 text-center text-sm">{empty}</p>
      )}
    </ChartFrame>
  );
}

/** Excess wait (EWT, minutes) per service day over the period; days not derived have no point. */
export function ExcessWaitByDayChart({ days }: { days: HistoryRoutesResponse['days'] }) {
  const data = days.map((d) => ({ date: d.date.slice(5), ewt: d.regularity.ewtS === null ? null : Math.round((d.regularity.ewtS / 60) * 10) / 10 }));
  const known = days.filter((d) => d.regularity.ewtS !== null);
  const notDerived = days.filter((d) => d.regularity.derivation === 'not-derived').length;
  const worst = known.reduce<(typeof known)[number] | null>((w, d) => (w === null || d.regularity.ewtS! > w.regularity.ewtS! ? d : w), null);
  const summary = worst
    ? `Excess wait over ${known.length} service days; highest on ${worst.date} at ${formatMinutes(worst.regularity.ewtS! / 60)} minutes${notDerived ? `; ${notDerived} days not derived` : ''}.`
    : notDerived
      ? 'Headways not derived for these service days.'
      : 'No headways recorded in this period.';
  return (
    <ChartFrame title={`Excess wait (EWT) per service day${notDerived ? ` (${notDerived} not derived)` : ''}`} summary={summary}>
      {known.length ? (
        <LineChart responsive style={{ width: '100%', height: 260 }} data={data} margin={{ top: 4, right: 8, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b833" vertical={false} />
          <XAxis dataKey="date" tick={axisTick} />
          <YAxis tick={axisTick} width={40} unit=" min" />
          <Tooltip contentStyle={tooltipStyle} />
          <Line dataKey="ewt" name="EWT (min)" stroke={COLORS.late} dot isAnimationActive={false} connectNulls={false} />
        </LineChart>
      ) : (
        <p className="py-10 text-center text-sm">{notDerived ? 'Headways not derived for these service days.' : 'No headways recorded in this period.'}</p>
      )}
    </ChartFrame>
  );
}

/** Excess wait (EWT, minutes) by local hour of the wait over the period's derived days. */
export function ExcessWaitByHourChart({ hours }: { hours: HistoryRoutesResponse['regularityHours'] }) {
  const data = hours.map((h) => ({ hour: `${String(h.hour).padStart(2, '0')}:00`, value: h.ewtS === null ? null : Math.round((h.ewtS / 60) * 10) / 10, samples: h.samples }));
  const known = hours.filter((h) => h.ewtS !== null);
  const worst = known.reduce<(typeof known)[number] | null>((w, h) => (w === null || h.ewtS! > w.ewtS! ? h : w), null);
  const summary = worst ? `Excess wait by hour of the day; highest at ${worst.hour}:00 with ${formatMinutes(worst.ewtS! / 60)} minutes.` : 'No headways with a scheduled headway in this period.';
  return <HourBars title="Excess wait (EWT) by hour of the day" summary={summary} data={data} name="EWT (min)" empty="No headways with a scheduled headway in this period." />;
}
