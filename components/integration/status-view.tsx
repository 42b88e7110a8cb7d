'use client';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppHeader } from '@/components/app-header';
import { StatusExceptions } from '@/components/exceptions/status-exceptions';
import { integrationQuery } from '@/lib/client/queries';
import { useDisplayZone } from '@/lib/client/use-display-zone';
import { useNow } from '@/lib/client/use-now';
import type { IntegrationResponse } from '@/lib/model';
import { agencyZoneOf, zoneCaption, type ResolvedZone } from '@/lib/view/display-zone';
import { formatAgo, formatClock } from '@/lib/view/format';
import { budgetLabel, UPSTREAM_STATE_LABELS } from '@/lib/view/health';
import { budgetSeries, errorsByKind, formatOffset, instanceSummary, recorderSummary, timezoneExplanation } from '@/lib/view/integration';
import { BudgetChart } from './budget-chart';
import { ErrorList, TransitionTimeline } from './event-lists';

/**
 * The integration status page: what an administrator checks when the map looks wrong. Everything comes from
 * /api/integration; the key itself is never part of it.
 */
export function StatusView() {
  const query = useQuery(integrationQuery());
  const data = query.data;
  const zone = useDisplayZone(agencyZoneOf(data?.health));
  return (
    <div className="flex min-h-full flex-col">
      <AppHeader
        title="Integration status"
        current="status"
        agencyZone={agencyZoneOf(data?.health)}
        status={
          <p className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
            {data ? `As of ${formatClock(data.generatedAt, true, zone.zone)} (${zoneCaption(zone)})` : query.isError ? 'No answer from the server' : 'Loading…'}
          </p>
        }
      />
      <main className="mx-auto flex w-full max-w-7xl flex-col gap-4 p-4">
        {query.isError && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-950 dark:border-red-900 dark:bg-red-950/70 dark:text-red-100">
            The status cannot be read: {query.error.message}. Retrying every few seconds.
          </p>
        )}
        {data && <StatusSections data={data} zone={zone} />}
      </main>
    </div>
  );
}

function StatusSections({ data, zone }: { data: IntegrationResponse; zone: ResolvedZone }) {
  const now = useNow() || data.generatedAt;
  const { health, record } = data;
  const series = budgetSeries(record, data.generatedAt);
  const byKind = errorsByKind(record.errors);
  const tz = health.timezone;
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="The key">
          <Facts>
            <Fact label="Upstream">
              {UPSTREAM_STATE_LABELS[health.state]}
              {health.message ? ` · ${health.message}` : ''}
            </Fact>
            <Fact label="Plan">{health.plan ?? 'unknown'}</Fact>
            <Fact label="Level">{health.level ?? 'unknown'}</Fact>
            <Fact label="Scopes">{health.scopes.length ? health.scopes.join(', ') : 'none'}</Fact>
            <Fact label="Limit">{health.budget.limit === null ? 'unknown' : `${health.budget.limit} requests/min`}</Fact>
            <Fact label="Feed share">{`${Math.round(health.budget.share * 100)} % (the rest for on-demand requests)`}</Fact>
            <Fact label="Last success">{health.lastSuccessAt === null ? 'none yet' : `${formatClock(health.lastSuccessAt, true, zone.zone)} (${formatAgo(Math.max(0, (data.generatedAt - health.lastSuccessAt) / 1000))})`}</Fact>
          </Facts>
        </Card>
        <Card title="Timezone">
          <Facts>
            <Fact label="Upstream times read in">{tz.zone}</Fact>
            <Fact label="Offset now">{formatOffset(tz.offsetMinutes)}</Fact>
            <Fact label="Decided by">{tz.source}</Fact>
          </Facts>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{timezoneExplanation(tz)}</p>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">Times on this page: {zoneCaption(zone)}.</p>
        </Card>
        <Card title="This server">
          <Facts>
            <Fact label="Recorder">{recorderSummary(data.recorder)}</Fact>
            <Fact label="Instance">{instanceSummary(data.instance)}</Fact>
            <Fact label="Version">{data.build.version}</Fact>
            <Fact label="Build">{data.build.buildId ?? 'development (no build id)'}</Fact>
          </Facts>
        </Card>
      </div>

      <Card title="Budget use per minute, last hour">
        <Facts inline>
          <Fact label="Used in the last 60 s">{budgetLabel(health)}</Fact>
          <Fact label="Requests in the hour">{String(series.totals.requests)}</Fact>
          <Fact label="Busiest minute">{String(series.peak)}</Fact>
          <Fact label="429s in the hour">{String(series.totals.rateLimited429)}</Fact>
          <Fact label="429s since start">{String(health.budget.rateLimited429)}</Fact>
          <Fact label="Failed in the hour">{String(series.totals.failed)}</Fact>
        </Facts>
        <BudgetChart series={series} limit={health.budget.limit} zone={zone.zone} />
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Kept in this server&apos;s memory since {formatClock(record.since, false, zone.zone)}: a restart starts the hour again.
        </p>
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Errors, last hour">
          {byKind.length > 0 && (
            <ul aria-label="Errors by kind" className="mb-2 flex flex-wrap gap-2 text-sm">
              {byKind.map((k) => (
                <li key={k.kind} className="rounded-full border border-slate-300 px-2 py-0.5 dark:border-slate-600">
                  {k.kind}: <span className="font-semibold tabular-nums">{k.count}</span>
                </li>
              ))}
            </ul>
          )}
          <ErrorList errors={record.errors} zone={zone.zone} />
        </Card>
        <Card title="Health transitions, last hour">
          <TransitionTimeline transitions={record.transitions} zone={zone.zone} now={now} />
        </Card>
      </div>
      <StatusExceptions zone={zone.zone} />
      <p className="text-xs text-slate-600 dark:text-slate-400">The integration key is never shown here or sent to any browser.</p>
    </>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = `status-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <h2 id={id} className="mb-2 text-sm font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Facts({ children, inline }: { children: ReactNode; inline?: boolean }) {
  return <dl className={inline ? 'mb-2 flex flex-wrap gap-x-6 gap-y-1 text-sm' : 'flex flex-col gap-1 text-sm'}>{children}</dl>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="shrink-0 text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="min-w-0 font-medium break-words" data-fact={label}>
        {children}
      </dd>
    </div>
  );
}
