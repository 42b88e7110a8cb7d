'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useHydrated } from '@/lib/client/use-hydrated';
import { EXCEPTION_RULES, EXCEPTION_SEVERITIES, type AdminWebhookTarget, type WebhookTestResult } from '@/lib/model';
import { btn, call, td, th, useRefreshAdmin } from './admin-shared';

// The admin page's webhook targets (lib/exceptions delivers to them and to ALERT_WEBHOOKS'): add one, send it a
// signed test delivery, remove it. The secret is typed once; the page never sees it again, only its last 4 characters.

const at = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleString());
const field = 'rounded border border-slate-300 px-2 py-1 dark:border-slate-600 dark:bg-slate-900';

export function WebhookTargets() {
  const refresh = useRefreshAdmin();
  const hydrated = useHydrated();
  const targets = useQuery({ queryKey: ['admin', 'webhooks'], queryFn: ({ signal }) => call<{ targets: AdminWebhookTarget[] }>('/api/admin/webhooks', { signal }) });
  const [tested, setTested] = useState<{ url: string; result: WebhookTestResult } | null>(null);
  // Read from the form at submit (as the wall tokens' form): what was typed before hydration is what is sent.
  const add = useMutation({
    mutationFn: (form: HTMLFormElement) => {
      const f = new FormData(form);
      const rules = f.getAll('rules').map(String);
      const minSeverity = String(f.get('minSeverity') ?? '');
      return call<{ target: AdminWebhookTarget }>('/api/admin/webhooks', {
        method: 'POST',
        body: JSON.stringify({ url: String(f.get('url') ?? ''), secret: String(f.get('secret') ?? ''), rules: rules.length > 0 ? rules : null, minSeverity: minSeverity || null }),
      });
    },
    onSuccess: (_r, form) => {
      form.reset();
      void refresh();
    },
  });
  const test = useMutation({
    mutationFn: (t: AdminWebhookTarget) => call<WebhookTestResult>(`/api/admin/webhooks/${t.id}/test`, { method: 'POST' }),
    onSuccess: (result, t) => setTested({ url: t.url, result }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => call(`/api/admin/webhooks/${id}`, { method: 'DELETE' }),
    onSuccess: () => void refresh(),
  });
  const active = (targets.data?.targets ?? []).filter((t) => t.removedAt === null);
  return (
    <section aria-labelledby="webhooks-title" className="space-y-3">
      <h2 id="webhooks-title" className="text-lg font-semibold">
        Webhook targets
      </h2>
      <p className="text-slate-600 dark:text-slate-300">
        Exceptions are sent to these and to ALERT_WEBHOOKS&apos; targets, signed with each target&apos;s secret (X-Fleetmap-Signature). https only; plain http only to this machine (loopback).
      </p>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate(e.currentTarget);
        }}
      >
        <label className="flex flex-col">
          Target URL
          <input name="url" type="url" required placeholder="https://ops.example.org/fleetmap" className={`${field} w-72`} />
        </label>
        <label className="flex flex-col">
          Secret
          <input name="secret" type="password" required minLength={16} autoComplete="off" placeholder="16 characters or more" className={field} />
        </label>
        <label className="flex flex-col">
          Least severity
          <select name="minSeverity" defaultValue="" className={field}>
            <option value="">any</option>
            {EXCEPTION_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="flex flex-wrap items-center gap-x-2">
          <legend>Rules (none ticked: every rule)</legend>
          {EXCEPTION_RULES.map((r) => (
            <label key={r} className="flex items-center gap-1">
              <input type="checkbox" name="rules" value={r} />
              {r}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={!hydrated || add.isPending} className={btn}>
          Add webhook target
        </button>
        {add.isError && <span role="alert" className="text-red-700 dark:text-red-400">{add.error.message}</span>}
      </form>
      {tested && (
        <div role="status" aria-label="Test delivery" className={`rounded border p-2 ${tested.result.ok ? 'border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950/50' : 'border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950/50'}`}>
          <p>
            Test delivery to {tested.url}: {tested.result.status === null ? `no answer (${tested.result.error})` : `HTTP ${tested.result.status}`}
          </p>
          {tested.result.body && <pre className="mt-1 whitespace-pre-wrap font-mono text-xs">{tested.result.body}</pre>}
        </div>
      )}
      {test.isError && <p role="alert">{test.error.message}</p>}
      <table className="w-full">
        <thead>
          <tr>
            <th className={th}>URL</th>
            <th className={th}>Secret</th>
            <th className={th}>Rules</th>
            <th className={th}>Least severity</th>
            <th className={th}>Added</th>
            <th className={th} />
          </tr>
        </thead>
        <tbody>
          {active.map((t) => (
            <tr key={t.id} className="border-t border-slate-200 dark:border-slate-800">
              <td className={`${td} break-all font-mono text-xs`}>{t.url}</td>
              <td className={`${td} font-mono text-xs`}>{t.secretMasked}</td>
              <td className={td}>{t.rules?.join(', ') ?? 'all'}</td>
              <td className={td}>{t.minSeverity ?? 'any'}</td>
              <td className={td}>
                {at(t.createdAt)} by {t.createdBy}
              </td>
              <td className={`${td} whitespace-nowrap`}>
                <button type="button" className={btn} disabled={test.isPending} onClick={() => test.mutate(t)} aria-label={`Send test to ${t.url}`}>
                  Send test
                </button>{' '}
                <button type="button" className={btn} disabled={remove.isPending} onClick={() => remove.mutate(t.id)} aria-label={`Remove ${t.url}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
          {active.length === 0 && targets.isSuccess && (
            <tr>
              <td className={td} colSpan={6}>
                None added here.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {targets.isError && <p role="alert">{targets.error.message}</p>}
    </section>
  );
}
