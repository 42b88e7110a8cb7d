'use client';
// /status's part of the exceptions: the integration's own exceptions (upstream, budget, recorder, coordination) and
// the webhook deliveries that gave up.
import { useQuery } from '@tanstack/react-query';
import { exceptionsQuery, webhookDeliveriesQuery } from '@/lib/client/queries';
import { INTEGRATION_RULES } from '@/lib/model';
import { RULE_LABELS, SEVERITY_LABELS } from '@/lib/view/exceptions';
import { formatClock, type DisplayZone } from '@/lib/view/format';

export function StatusExceptions({ zone }: { zone: DisplayZone }) {
  const exceptions = useQuery(exceptionsQuery());
  const deliveries = useQuery(webhookDeliveriesQuery());
  const integration = (exceptions.data?.exceptions ?? []).filter((e) => INTEGRATION_RULES.includes(e.rule));
  const d = deliveries.data;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section aria-labelledby="status-integration-exceptions" className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
        <h2 id="status-integration-exceptions" className="mb-2 text-sm font-semibold">
          Integration exceptions
        </h2>
        {exceptions.isError && <p className="text-sm">Cannot be read: {exceptions.error.message}</p>}
        {exceptions.data && integration.length === 0 && <p className="text-sm text-slate-700 dark:text-slate-300">None in the last hour.</p>}
        <ul className="flex flex-col gap-1 text-sm">
          {integration.map((e) => (
            <li key={e.id}>
              <span className="font-semibold">{RULE_LABELS[e.rule]}</span> ({SEVERITY_LABELS[e.severity].toLowerCase()}, {e.state}) since {formatClock(e.since, false, zone)}
              {e.resolvedAt !== null ? `, resolved ${formatClock(e.resolvedAt, false, zone)}` : ''}: {e.message}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="status-webhooks" className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
        <h2 id="status-webhooks" className="mb-2 text-sm font-semibold">
          Webhooks
        </h2>
        {deliveries.isError && <p className="text-sm">Cannot be read: {deliveries.error.message}</p>}
        {d && (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {d.targets} target{d.targets === 1 ? '' : 's'}; deliveries: {Object.entries(d.byState).map(([state, n]) => `${n} ${state}`).join(', ') || 'none yet'}.
            </p>
            {d.dead.length > 0 && (
              <ul aria-label="Dead deliveries" className="mt-2 flex flex-col gap-1 text-sm">
                {d.dead.map((x) => (
                  <li key={x.id}>
                    {formatClock(x.diedAt, false, zone)} · {x.target} · {x.type} of {x.exceptionId} · {x.attempts} tries · {x.lastError ?? 'no answer'}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>
    </div>
  );
}
