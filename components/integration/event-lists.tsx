'use client';
import { useState } from 'react';
import type { HealthTransition, RecordedUpstreamError } from '@/lib/model';
import { formatAgo, formatClock, type DisplayZone } from '@/lib/view/format';
import { UPSTREAM_STATE_LABELS } from '@/lib/view/health';
import { errorKindLabel, kindLabel } from '@/lib/view/integration';

/** The newest errors first, each with its correlation id ready to copy for the API provider's support. */
export function ErrorList({ errors, zone }: { errors: readonly RecordedUpstreamError[]; zone: DisplayZone }) {
  if (errors.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">No upstream error in the last hour.</p>;
  return (
    <div className="max-h-96 overflow-auto">
      <table aria-label="Upstream errors" className="w-full text-left text-sm">
        <thead className="sticky top-0 bg-white text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-300">
          <tr>
            <th scope="col" className="py-1 pr-2 font-medium">Time</th>
            <th scope="col" className="py-1 pr-2 font-medium">Request</th>
            <th scope="col" className="py-1 pr-2 font-medium">Kind</th>
            <th scope="col" className="py-1 pr-2 font-medium">Message</th>
            <th scope="col" className="py-1 font-medium">Correlation id</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((e, i) => (
            <tr key={`${e.at}-${i}`} className="border-t border-slate-100 align-top dark:border-slate-800" data-error-kind={errorKindLabel(e)}>
              <td className="py-1 pr-2 whitespace-nowrap tabular-nums">{formatClock(e.at, true, zone)}</td>
              <td className="py-1 pr-2">{kindLabel(e.operation)}</td>
              <td className="py-1 pr-2 whitespace-nowrap">{errorKindLabel(e)}</td>
              <td className="py-1 pr-2 break-words">{e.message}</td>
              <td className="py-1">{e.correlationId ? <CorrelationId id={e.correlationId} /> : <span className="text-slate-600 dark:text-slate-400">none</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CorrelationId({ id }: { id: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
      setTimeout(() => setCopied(false), 2_000);
    } catch {
      // No clipboard access (an insecure origin, a policy): the id is selectable text beside the button.
    }
  };
  return (
    <span className="flex items-center gap-1.5">
      <code className="rounded bg-slate-100 px-1 text-xs select-all dark:bg-slate-800" data-correlation-id>
        {id}
      </code>
      <button type="button" onClick={copy} className="rounded border border-slate-300 px-1.5 text-xs hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-slate-600 dark:hover:bg-slate-800">
        {copied ? 'Copied' : 'Copy'}
        <span className="sr-only"> correlation id {id}</span>
      </button>
    </span>
  );
}

/** Changes of the upstream's state, oldest first, as a timeline. */
export function TransitionTimeline({ transitions, zone, now }: { transitions: readonly HealthTransition[]; zone: DisplayZone; now: number }) {
  if (transitions.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">No change of state in the last hour.</p>;
  return (
    <ol aria-label="Health transitions" className="relative max-h-96 overflow-auto border-l border-slate-300 pl-4 text-sm dark:border-slate-600">
      {transitions.map((t, i) => (
        <li key={`${t.at}-${i}`} className="mb-2" data-transition={`${t.from}>${t.to}`}>
          <span aria-hidden className="absolute -left-1 mt-1.5 inline-block size-2 rounded-full bg-slate-500" />
          <p>
            <time className="tabular-nums">{formatClock(t.at, true, zone)}</time>{' '}
            <span className="text-slate-600 dark:text-slate-300">({formatAgo(Math.max(0, (now - t.at) / 1000))})</span>{' '}
            <span className="font-semibold">
              {UPSTREAM_STATE_LABELS[t.from]} → {UPSTREAM_STATE_LABELS[t.to]}
            </span>
          </p>
          <p className="text-slate-700 dark:text-slate-300">{t.message}</p>
        </li>
      ))}
    </ol>
  );
}
