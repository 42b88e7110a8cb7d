'use client';
import type { HistoryTripResponse } from '@/lib/model';
import { formatClock, formatDelay } from '@/lib/view/format';

// A small step chart drawn as SVG here: the dispatcher's page must not carry a charting library (recharts loads on
// the delay board only), and one line with three ticks on each axis needs none.

const W = 320;
const H = 120;
const PAD = { left: 34, right: 6, top: 6, bottom: 18 };

interface Step {
  at: number;
  delay: number;
}

/** Up to three whole-minute ticks: zero, and the lowest and highest where they do not crowd it (14 px apart). */
function delayTicks(lo: number, hi: number, y: (d: number) => number): number[] {
  const ends = [lo, hi].map((v) => Math.round(v)).filter((v) => v !== 0 && Math.abs(y(v) - y(0)) >= 14);
  return [...new Set([0, ...ends])].sort((a, b) => a - b);
}

/** The trip's delay over time as recorded (a step at each change), up to now for a running trip. */
export function TripDelayHistory({ history, now }: { history: HistoryTripResponse | undefined; now: number }) {
  const changes: Step[] = [];
  for (const c of history?.delayChanges ?? []) if (c.delayMinutes !== null) changes.push({ at: c.at, delay: c.delayMinutes });
  if (!history || changes.length === 0) {
    return <p className="text-slate-500 dark:text-slate-400">{history ? 'No delay recorded for this trip yet.' : 'No recorded history for this trip.'}</p>;
  }
  const last = changes[changes.length - 1]!;
  const end = Math.max(history.finalAt ?? Math.max(history.lastSeenAt, now), last.at);
  const start = changes[0]!.at;
  const delays = changes.map((c) => c.delay);
  const worst = Math.max(...delays);
  // Zero stays in view, so early and late read at a glance; a flat line gets a minute of room either side.
  let lo = Math.min(0, ...delays);
  let hi = Math.max(0, ...delays);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const span = Math.max(end - start, 1);
  const x = (at: number) => PAD.left + ((at - start) / span) * (W - PAD.left - PAD.right);
  const y = (d: number) => PAD.top + ((hi - d) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  let path = `M${x(start).toFixed(1)},${y(changes[0]!.delay).toFixed(1)}`;
  for (let i = 1; i < changes.length; i++) path += `H${x(changes[i]!.at).toFixed(1)}V${y(changes[i]!.delay).toFixed(1)}`;
  path += `H${x(end).toFixed(1)}`;
  // Start, middle and end, each only once on screen: over a minute or two the three would read the same.
  const timeTicks: { at: number; label: string }[] = [];
  for (const at of [start, start + span / 2, end]) {
    const label = formatClock(at);
    if (!timeTicks.some((t) => t.label === label)) timeTicks.push({ at, label });
  }
  const summary = `Delay of this trip over time: ${changes.length} recorded values from ${formatDelay(changes[0]!.delay)} to ${formatDelay(last.delay)}, worst ${formatDelay(worst)}.`;
  return (
    <figure>
      <svg role="img" aria-label={summary} viewBox={`0 0 ${W} ${H}`} className="h-auto w-full text-slate-600 dark:text-slate-300" data-chart="trip-delay">
        {delayTicks(lo, hi, y).map((d) => (
          <g key={d}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(d)} y2={y(d)} stroke="currentColor" strokeOpacity={d === 0 ? 0.5 : 0.15} strokeDasharray={d === 0 ? '3 3' : undefined} />
            <text x={PAD.left - 4} y={y(d)} dy="0.32em" textAnchor="end" fontSize={11} fill="currentColor">
              {d > 0 ? `+${d}′` : d < 0 ? `−${-d}′` : '0′'}
            </text>
          </g>
        ))}
        {timeTicks.map((t, i) => (
          <text key={t.at} x={x(t.at)} y={H - 4} textAnchor={i === 0 ? 'start' : t.at === end ? 'end' : 'middle'} fontSize={11} fill="currentColor">
            {t.label}
          </text>
        ))}
        <path d={path} fill="none" stroke="#b45309" strokeWidth={2} />
        {/* Each step's value on hover (the browser's own tooltip). */}
        {changes.map((c, i) => {
          const to = i + 1 < changes.length ? changes[i + 1]!.at : end;
          return (
            <rect key={c.at} x={x(c.at)} y={PAD.top} width={Math.max(x(to) - x(c.at), 1)} height={H - PAD.top - PAD.bottom} fill="transparent">
              <title>{`${formatClock(c.at, true)}: ${formatDelay(c.delay)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="text-[11px] text-slate-500 dark:text-slate-400">
        {history.trail.length} recorded positions drawn on the map{history.finalAt ? ' · trip ended' : ''}.
      </figcaption>
    </figure>
  );
}
