'use client';
// The dispatcher's exceptions: a count badge by severity, the list (sortable by severity or age, filterable by rule and
// route), a click that selects the bus or trip on the map, a link to its route's ladder with its trip chosen, and
// acknowledge and snooze for dispatchers and above (viewers only read). New exceptions, and snoozed ones whose snooze
// ends, are announced through an aria-live region; nothing flashes or moves.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { exceptionsQuery, postExceptionAction } from '@/lib/client/queries';
import { EXCEPTION_RULES, type ExceptionRule, type LiveException } from '@/lib/model';
import { formatAgo } from '@/lib/view/format';
import {
  RULE_LABELS,
  SEVERITY_LABELS,
  exceptionLadderHref,
  exceptionRoutes,
  newExceptionsAnnouncement,
  panelRows,
  severityCounts,
  snoozeEndedAnnouncement,
  snoozedIds,
  subjectLabel,
  unreadCount,
  type ExceptionSort,
} from '@/lib/view/exceptions';

const SEVERITY_STYLE = {
  critical: 'border-red-700 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100',
  warning: 'border-amber-700 bg-amber-50 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100',
  info: 'border-slate-500 bg-slate-50 text-slate-900 dark:border-slate-400 dark:bg-slate-800 dark:text-slate-100',
} as const;

const SNOOZE_MINUTES = [15, 30, 60, 120];

export interface ExceptionsPanelProps {
  now: number;
  /** Selects what the exception is about on the map (its trip when listed, else its bus). */
  onSelect: (e: LiveException) => void;
}

export function ExceptionsPanel({ now, onSelect }: ExceptionsPanelProps) {
  const query = useQuery(exceptionsQuery());
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [sort, setSort] = useState<ExceptionSort>('severity');
  const [rule, setRule] = useState<ExceptionRule | null>(null);
  const [routeCode, setRouteCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const seen = useRef<Set<string> | null>(null);
  const listId = useId();
  const data = query.data;
  const list = useMemo(() => data?.exceptions ?? [], [data]);

  useEffect(() => {
    if (!data) return;
    const said = newExceptionsAnnouncement(seen.current, data.exceptions);
    if (said) setAnnouncement(said);
    seen.current = new Set(data.exceptions.map((e) => e.id));
  }, [data]);

  // A snoozed exception says nothing until its snooze ends; then it is announced once, and counts again.
  const snoozed = useRef<Set<string>>(new Set());
  useEffect(() => {
    const said = snoozeEndedAnnouncement(snoozed.current, list, now);
    if (said) setAnnouncement(said);
    snoozed.current = snoozedIds(list, now);
  }, [list, now]);

  // Shown is seen: once this user has the list open, what it shows is no longer unread for them.
  const rows = useMemo(() => panelRows(list, { rule, routeCode }, sort), [list, rule, routeCode, sort]);
  const unreadShown = useMemo(() => (open ? rows.filter((e) => e.unread).map((e) => e.id) : []), [open, rows]);
  useEffect(() => {
    if (unreadShown.length === 0) return;
    void postExceptionAction('/api/exceptions/read', { ids: unreadShown }).then(() => client.invalidateQueries({ queryKey: ['exceptions'] }), () => {});
  }, [unreadShown, client]);

  const act = async (path: string, body: unknown) => {
    setError(null);
    try {
      await postExceptionAction(path, body);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
    await client.invalidateQueries({ queryKey: ['exceptions'] });
  };

  const counts = severityCounts(list, now);
  const unread = unreadCount(list, now);
  const canAct = data?.canAct ?? false;
  const routes = exceptionRoutes(list);

  return (
    <section aria-label="Exceptions" className="border-b border-slate-200 dark:border-slate-800">
      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>
      <button type="button" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)} className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm font-semibold">
        <span>Exceptions</span>
        <span aria-label="Open exceptions by severity" className="flex gap-1">
          {counts.length === 0 ? (
            <span className="font-normal text-slate-600 dark:text-slate-300">none open</span>
          ) : (
            counts.map((c) => (
              <span key={c.severity} className={`rounded-full border px-2 text-xs ${SEVERITY_STYLE[c.severity]}`}>
                {c.count} {SEVERITY_LABELS[c.severity].toLowerCase()}
              </span>
            ))
          )}
        </span>
        {unread > 0 && <span className="ml-auto text-xs font-normal text-slate-700 dark:text-slate-300">{unread} unread</span>}
      </button>
      {open && (
        <div id={listId} className="max-h-[40dvh] overflow-y-auto px-3 pb-2">
          <div className="flex flex-wrap gap-2 pb-2 text-xs">
            <label className="flex items-center gap-1">
              Sort
              <select value={sort} onChange={(e) => setSort(e.target.value as ExceptionSort)} className="rounded border border-slate-300 bg-white px-1 dark:border-slate-600 dark:bg-slate-900">
                <option value="severity">severity, newest first</option>
                <option value="age">age, oldest first</option>
              </select>
            </label>
            <label className="flex items-center gap-1">
              Rule
              <select value={rule ?? ''} onChange={(e) => setRule((e.target.value || null) as ExceptionRule | null)} className="rounded border border-slate-300 bg-white px-1 dark:border-slate-600 dark:bg-slate-900">
                <option value="">all</option>
                {EXCEPTION_RULES.map((r) => (
                  <option key={r} value={r}>
                    {RULE_LABELS[r]}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-1">
              Route
              <select value={routeCode ?? ''} onChange={(e) => setRouteCode(e.target.value || null)} className="rounded border border-slate-300 bg-white px-1 dark:border-slate-600 dark:bg-slate-900">
                <option value="">all</option>
                {routes.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {error && (
            <p role="alert" className="mb-2 text-xs text-red-800 dark:text-red-200">
              {error}
            </p>
          )}
          {query.isError && !data && <p className="text-xs">Exceptions cannot be read now: {query.error.message}</p>}
          {data && rows.length === 0 && <p className="text-xs text-slate-600 dark:text-slate-300">No exceptions.</p>}
          <ul aria-label="Exception list" className="flex flex-col gap-1">
            {rows.map((e) => (
              <li key={e.id} aria-label={`${SEVERITY_LABELS[e.severity]} ${RULE_LABELS[e.rule]}: ${subjectLabel(e)}`} className={`rounded border-l-4 px-2 py-1 text-xs ${SEVERITY_STYLE[e.severity]}`}>
                <div className="flex items-baseline gap-2">
                  <span className="font-semibold">{RULE_LABELS[e.rule]}</span>
                  <span className="text-[11px] uppercase">{SEVERITY_LABELS[e.severity]}</span>
                  {e.unread && <span className="text-[11px] font-semibold">unread</span>}
                  <span className="ml-auto tabular-nums">{e.state === 'resolved' ? 'resolved' : `${formatAgo(Math.max(0, (now - e.openedAt) / 1000))}`}</span>
                </div>
                <p>{e.message}</p>
                <div className="mt-1 flex flex-wrap items-center gap-2">
                  {(e.subject.busId !== null || e.subject.tripId !== null) && (
                    <button type="button" className="underline" onClick={() => onSelect(e)}>
                      Show {subjectLabel(e)}
                    </button>
                  )}
                  {exceptionLadderHref(e) !== null && (
                    <Link href={exceptionLadderHref(e)!} prefetch={false} className="underline">
                      On the ladder<span className="sr-only"> ({subjectLabel(e)})</span>
                    </Link>
                  )}
                  {e.state === 'acknowledged' && <span>Acknowledged by {e.acknowledgedBy}{e.note ? `: ${e.note}` : ''}</span>}
                  {e.snoozedUntil !== null && e.snoozedUntil > now && e.state !== 'resolved' && <span>Snoozed</span>}
                  {canAct && e.state === 'open' && (
                    <button type="button" className="rounded border border-current px-1" onClick={() => void act(`/api/exceptions/${e.id}/acknowledge`, {})}>
                      Acknowledge
                    </button>
                  )}
                  {canAct && e.state !== 'resolved' && (
                    <label className="flex items-center gap-1">
                      <span className="sr-only">Snooze {RULE_LABELS[e.rule]} {subjectLabel(e)} for</span>
                      <select
                        value=""
                        onChange={(ev) => ev.target.value && void act(`/api/exceptions/${e.id}/snooze`, { minutes: Number(ev.target.value) })}
                        className="rounded border border-current bg-transparent px-1"
                      >
                        <option value="">Snooze…</option>
                        {SNOOZE_MINUTES.map((m) => (
                          <option key={m} value={m}>
                            {m} min
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
