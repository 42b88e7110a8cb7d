'use client';
// /exceptions: what opened over a period, for managers. Any period (days in the browser's calendar), filtered by rule
// and route, the time to acknowledge and to resolve per rule, and the list as CSV.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { AppHeader } from '@/components/app-header';
import { downloadText } from '@/components/delays/download';
import { exceptionHistoryQuery } from '@/lib/client/queries';
import { toCsv } from '@/lib/csv/csv';
import { EXCEPTION_RULES, ruleTimesOf, type ExceptionRule } from '@/lib/model';
import { RULE_LABELS, SEVERITY_LABELS, exceptionCsvLines, exceptionRoutes, panelRows, subjectLabel } from '@/lib/view/exceptions';
import { formatDuration } from '@/lib/view/format';

const DAY = 86_400_000;
const dateInput = (t: number) => new Date(t - new Date(t).getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
const startOfDay = (value: string) => new Date(`${value}T00:00:00`).getTime();

export function ExceptionHistory() {
  const [today] = useState(() => dateInput(Date.now()));
  const [from, setFrom] = useState(() => dateInput(Date.now() - 6 * DAY));
  const [to, setTo] = useState(today);
  const [rule, setRule] = useState<ExceptionRule | null>(null);
  const [routeCode, setRouteCode] = useState<string | null>(null);
  const fromMs = startOfDay(from);
  const toMs = startOfDay(to) + DAY;
  const valid = Number.isFinite(fromMs) && Number.isFinite(toMs) && toMs > fromMs;
  const query = useQuery({ ...exceptionHistoryQuery(fromMs, toMs), enabled: valid });
  const all = useMemo(() => query.data?.exceptions ?? [], [query.data]);
  const rows = useMemo(() => panelRows(all, { rule, routeCode }, 'age').reverse(), [all, rule, routeCode]);
  const times = ruleTimesOf(rows);
  const fmt = (s: number | null) => (s === null ? '—' : formatDuration(s));
  const selectClass = 'rounded border border-slate-300 bg-white px-1 dark:border-slate-600 dark:bg-slate-900';

  return (
    <div className="flex min-h-full flex-col">
      <AppHeader title="Exceptions" current="exceptions" agencyZone={null} />
      <main className="mx-auto flex w-full max-w-7xl flex-col gap-4 p-4">
        <form aria-label="Period and filters" className="flex flex-wrap items-end gap-3 text-sm" onSubmit={(e) => e.preventDefault()}>
          <label className="flex flex-col">
            From
            <input type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} className={selectClass} />
          </label>
          <label className="flex flex-col">
            To
            <input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} className={selectClass} />
          </label>
          <label className="flex flex-col">
            Rule
            <select value={rule ?? ''} onChange={(e) => setRule((e.target.value || null) as ExceptionRule | null)} className={selectClass}>
              <option value="">all</option>
              {EXCEPTION_RULES.map((r) => (
                <option key={r} value={r}>
                  {RULE_LABELS[r]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col">
            Route
            <select value={routeCode ?? ''} onChange={(e) => setRouteCode(e.target.value || null)} className={selectClass}>
              <option value="">all</option>
              {exceptionRoutes(all).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={rows.length === 0} onClick={() => downloadText(`exceptions-${from}-${to}.csv`, toCsv(exceptionCsvLines(rows)))} className="rounded border border-slate-400 px-2 py-1 disabled:opacity-60">
            Download CSV
          </button>
        </form>
        {!valid && <p role="alert">The period must end after it starts.</p>}
        {query.isError && <p role="alert">The history cannot be read: {query.error.message}</p>}
        {query.data?.truncated && <p>Only the newest {all.length} exceptions of the period are shown: choose a shorter period.</p>}

        <section aria-labelledby="exception-times">
          <h2 id="exception-times" className="mb-2 font-semibold">
            Time to acknowledge and to resolve, by rule
          </h2>
          <table className="text-sm">
            <thead>
              <tr className="text-left">
                <th className="pr-4">Rule</th>
                <th className="pr-4">Exceptions</th>
                <th className="pr-4">Acknowledged</th>
                <th className="pr-4">Median to acknowledge</th>
                <th className="pr-4">Median to resolve</th>
              </tr>
            </thead>
            <tbody>
              {times.map((t) => (
                <tr key={t.rule}>
                  <td className="pr-4">{RULE_LABELS[t.rule]}</td>
                  <td className="pr-4 tabular-nums">{t.count}</td>
                  <td className="pr-4 tabular-nums">{t.acknowledged}</td>
                  <td className="pr-4 tabular-nums">{fmt(t.medianAckS)}</td>
                  <td className="pr-4 tabular-nums">{fmt(t.medianResolveS)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {query.data && times.length === 0 && <p className="text-sm">No exceptions in this period.</p>}
        </section>

        <section aria-labelledby="exception-list">
          <h2 id="exception-list" className="mb-2 font-semibold">
            Exceptions opened ({rows.length})
          </h2>
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left">
                <th className="pr-3">Opened</th>
                <th className="pr-3">Rule</th>
                <th className="pr-3">Severity</th>
                <th className="pr-3">About</th>
                <th className="pr-3">State</th>
                <th className="pr-3">Acknowledged by</th>
                <th className="pr-3">What</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} className="border-t border-slate-200 align-top dark:border-slate-800">
                  <td className="pr-3 tabular-nums">{new Date(e.openedAt).toLocaleString()}</td>
                  <td className="pr-3">{RULE_LABELS[e.rule]}</td>
                  <td className="pr-3">{SEVERITY_LABELS[e.severity]}</td>
                  <td className="pr-3">{subjectLabel(e)}</td>
                  <td className="pr-3">{e.state}</td>
                  <td className="pr-3">{e.acknowledgedBy ?? '—'}</td>
                  <td className="pr-3">{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </main>
    </div>
  );
}
