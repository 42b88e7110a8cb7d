'use client';
import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { BOARD_PERIODS, parseBoardPeriod, serializeBoardPeriod, type BoardPeriod } from '@/lib/view/board-period';

const selectClass = 'rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900';

/** The board's period, in the URL (replaceState: a change only this browser cares about, no server round trip). */
export function useBoardPeriod(): [BoardPeriod, (p: BoardPeriod) => void] {
  const params = useSearchParams();
  const period = useMemo(() => parseBoardPeriod(params), [params]);
  const update = useCallback((p: BoardPeriod) => {
    const qs = serializeBoardPeriod(p, new URLSearchParams(window.location.search));
    window.history.replaceState(null, '', qs ? `?${qs}` : window.location.pathname);
  }, []);
  return [period, update];
}

export function PeriodControl({ period, onChange, today }: { period: BoardPeriod; onChange: (p: BoardPeriod) => void; today: string | null }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-2">
        <span className="text-slate-600 dark:text-slate-300">Period</span>
        <select
          className={selectClass}
          value={period.kind}
          onChange={(e) => {
            const kind = e.target.value as BoardPeriod['kind'];
            onChange(kind === 'custom' ? { kind, from: period.from ?? today, to: period.to ?? today } : { kind, from: null, to: null });
          }}
        >
          {BOARD_PERIODS.map((p) => (
            <option key={p.kind} value={p.kind}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {period.kind === 'custom' && (
        <>
          <label className="flex items-center gap-1">
            <span className="text-slate-600 dark:text-slate-300">From</span>
            <input type="date" className={selectClass} value={period.from ?? ''} max={today ?? undefined} onChange={(e) => onChange({ ...period, from: e.target.value || null })} />
          </label>
          <label className="flex items-center gap-1">
            <span className="text-slate-600 dark:text-slate-300">To</span>
            <input type="date" className={selectClass} value={period.to ?? ''} max={today ?? undefined} onChange={(e) => onChange({ ...period, to: e.target.value || null })} />
          </label>
        </>
      )}
    </div>
  );
}
