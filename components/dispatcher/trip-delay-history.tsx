'use client';
import { Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistoryTripResponse } from '@/lib/model';
import { formatClock, formatDelay } from '@/lib/view/format';

const axisTick = { fill: 'currentColor', fontSize: 11 };

/** The trip's delay over time as recorded (a step at each change), up to now for a running trip. */
export function TripDelayHistory({ history, now }: { history: HistoryTripResponse | undefined; now: number }) {
  const changes = history?.delayChanges.filter((c) => c.delayMinutes !== null) ?? [];
  if (!history || changes.length === 0) {
    return <p className="text-slate-500 dark:text-slate-400">{history ? 'No delay recorded for this trip yet.' : 'No recorded history for this trip.'}</p>;
  }
  const end = history.finalAt ?? Math.max(history.lastSeenAt, now);
  const data = [...changes.map((c) => ({ at: c.at, delay: c.delayMinutes })), { at: end, delay: changes[changes.length - 1]!.delayMinutes }];
  const worst = Math.max(...changes.map((c) => c.delayMinutes!));
  const summary = `Delay of this trip over time: ${changes.length} recorded values from ${formatDelay(changes[0]!.delayMinutes)} to ${formatDelay(changes[changes.length - 1]!.delayMinutes)}, worst ${formatDelay(worst)}.`;
  return (
    <figure>
      <div role="img" aria-label={summary} className="text-slate-600 dark:text-slate-300">
        <LineChart responsive style={{ width: '100%', height: 120 }} data={data} margin={{ top: 4, right: 4, bottom: 0, left: 0 }}>
          <XAxis dataKey="at" type="number" domain={['dataMin', 'dataMax']} scale="time" tick={axisTick} tickFormatter={(v: number) => formatClock(v)} />
          <YAxis tick={axisTick} width={32} unit="′" allowDecimals={false} />
          <Tooltip labelFormatter={(v) => formatClock(Number(v), true)} formatter={(v) => [formatDelay(Number(v)), 'Delay']} />
          <Line type="stepAfter" dataKey="delay" stroke="#b45309" dot={false} isAnimationActive={false} />
        </LineChart>
      </div>
      <figcaption className="text-[11px] text-slate-500 dark:text-slate-400">
        {history.trail.length} recorded positions drawn on the map{history.finalAt ? ' · trip ended' : ''}.
      </figcaption>
    </figure>
  );
}
