'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AppHeader } from '@/components/app-header';
import { useHydrated } from '@/lib/client/use-hydrated';
import type { AdminAuditEntry, AdminUser, AdminWallToken, AuthMode, CreatedWallToken } from '@/lib/model';
import { btn, call, td, th, useRefreshAdmin, when } from './admin-shared';
import { WebhookTargets } from './webhook-targets';

// The admin page: who may sign in and their sessions, wall-display tokens, webhook targets, and the audit log. Every change is a
// fetch from this page (Origin: this site), which is what the server's CSRF check asks for.

export function AdminConsole({ mode }: { mode: AuthMode }) {
  return (
    <div className="min-h-screen">
      <AppHeader title="Fleetmap · Admin" current="admin" agencyZone={null} />
      <main className="mx-auto max-w-6xl space-y-8 p-4 text-sm">
        {mode === 'none' ? (
          <p>Sign-in is off (AUTH_MODE=none): there are no users, sessions or wall tokens to manage (webhook targets come from ALERT_WEBHOOKS).</p>
        ) : (
          <>
            <WallTokens />
            <WebhookTargets />
            <Users mode={mode} />
            <AuditLog />
          </>
        )}
      </main>
    </div>
  );
}

function WallTokens() {
  const refresh = useRefreshAdmin();
  const tokens = useQuery({ queryKey: ['admin', 'tokens'], queryFn: ({ signal }) => call<{ tokens: AdminWallToken[] }>('/api/admin/tokens', { signal }) });
  const [created, setCreated] = useState<CreatedWallToken | null>(null);
  const hydrated = useHydrated();
  // The form's own fields are read at submit, not mirrored in state: what was typed before the page hydrated
  // (a slow machine, a quick hand) is what is sent, where a controlled field would have been reset to empty.
  const create = useMutation({
    mutationFn: (form: HTMLFormElement) => {
      const fields = new FormData(form);
      return call<CreatedWallToken>('/api/admin/tokens', { method: 'POST', body: JSON.stringify({ name: String(fields.get('name') ?? ''), routes: String(fields.get('routes') ?? ''), kind: String(fields.get('kind') ?? 'wall') }) });
    },
    onSuccess: (r, form) => {
      setCreated(r);
      form.reset();
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => call(`/api/admin/tokens/${id}`, { method: 'DELETE' }),
    onSuccess: () => void refresh(),
  });
  const wallUrl = created?.wallPath ? `${window.location.origin}${created.wallPath}` : null;
  const feedUrls = created?.feedPaths?.map((p) => `${window.location.origin}${p}`) ?? null;
  return (
    <section aria-labelledby="tokens-title" className="space-y-3">
      <h2 id="tokens-title" className="text-lg font-semibold">
        Wall displays
      </h2>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(e.currentTarget);
        }}
      >
        <label className="flex flex-col">
          Display name
          <input name="name" required maxLength={80} placeholder="depot screen 2" className="rounded border border-slate-300 px-2 py-1 dark:border-slate-600 dark:bg-slate-900" />
        </label>
        <label className="flex flex-col">
          Kind
          <select name="kind" defaultValue="wall" className="rounded border border-slate-300 px-2 py-1 dark:border-slate-600 dark:bg-slate-900">
            <option value="wall">Wall display</option>
            <option value="feed">GTFS-Realtime feed</option>
          </select>
        </label>
        <label className="flex flex-col">
          Routes (optional)
          <input name="routes" maxLength={400} placeholder="M15,M101" className="rounded border border-slate-300 px-2 py-1 dark:border-slate-600 dark:bg-slate-900" />
        </label>
        <button type="submit" disabled={!hydrated || create.isPending} className={btn}>
          Create wall token
        </button>
        {create.isError && <span role="alert" className="text-red-700 dark:text-red-400">{create.error.message}</span>}
      </form>
      {created && wallUrl && (
        <div role="status" className="rounded border border-emerald-300 bg-emerald-50 p-2 dark:border-emerald-800 dark:bg-emerald-950/50">
          <p>
            Open this address once on <strong>{created.token.name}</strong>. It is shown only now; the display keeps its access in a cookie.
          </p>
          <input readOnly aria-label="Wall address" value={wallUrl} onFocus={(e) => e.currentTarget.select()} className="mt-1 w-full rounded border border-slate-300 px-2 py-1 font-mono text-xs dark:border-slate-600 dark:bg-slate-900" />
          <button type="button" className={`${btn} mt-1`} onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {created && feedUrls && (
        <div role="status" className="rounded border border-emerald-300 bg-emerald-50 p-2 dark:border-emerald-800 dark:bg-emerald-950/50">
          <p>
            The feed addresses for <strong>{created.token.name}</strong>, shown only now (the token also works as <code>Authorization: Bearer</code>). It reads the GTFS-Realtime feeds and nothing else.
          </p>
          {feedUrls.map((u, i) => (
            <input key={u} readOnly aria-label={i === 0 ? 'Vehicle positions feed address' : 'Trip updates feed address'} value={u} onFocus={(e) => e.currentTarget.select()} className="mt-1 w-full rounded border border-slate-300 px-2 py-1 font-mono text-xs dark:border-slate-600 dark:bg-slate-900" />
          ))}
          <button type="button" className={`${btn} mt-1`} onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <table className="w-full">
        <thead>
          <tr>
            <th className={th}>Display</th>
            <th className={th}>Routes</th>
            <th className={th}>Created</th>
            <th className={th}>Last used</th>
            <th className={th}>State</th>
            <th className={th} />
          </tr>
        </thead>
        <tbody>
          {(tokens.data?.tokens ?? []).map((t) => (
            <tr key={t.id} className="border-t border-slate-200 dark:border-slate-800">
              <td className={td}>
                {t.name}
                {t.kind === 'feed' ? ' (GTFS-Realtime feed)' : ''}
              </td>
              <td className={td}>{t.routes?.join(', ') ?? 'all'}</td>
              <td className={td}>
                {when(t.createdAt)} by {t.createdBy}
              </td>
              <td className={td}>{t.lastUsedAt ? when(t.lastUsedAt) : 'never'}</td>
              <td className={td}>{t.revokedAt ? `revoked ${when(t.revokedAt)}` : 'active'}</td>
              <td className={td}>
                {!t.revokedAt && (
                  <button type="button" className={btn} disabled={revoke.isPending} onClick={() => revoke.mutate(t.id)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {tokens.isError && <p role="alert">{tokens.error.message}</p>}
    </section>
  );
}

function Users({ mode }: { mode: AuthMode }) {
  const refresh = useRefreshAdmin();
  const users = useQuery({ queryKey: ['admin', 'users'], queryFn: ({ signal }) => call<{ users: AdminUser[] }>('/api/admin/users', { signal }) });
  const signOut = useMutation({
    mutationFn: (name: string) => call(`/api/admin/users/${encodeURIComponent(name)}/sessions`, { method: 'DELETE' }),
    onSuccess: () => void refresh(),
  });
  return (
    <section aria-labelledby="users-title" className="space-y-3">
      <h2 id="users-title" className="text-lg font-semibold">
        Users
      </h2>
      <p className="text-slate-600 dark:text-slate-300">
        {mode === 'local'
          ? 'Local accounts are added and removed on the server: npm run users -- add NAME --role ROLE, list, remove NAME.'
          : 'Users come from the identity provider; their role follows their groups at each sign-in.'}
      </p>
      <table className="w-full">
        <thead>
          <tr>
            <th className={th}>Name</th>
            <th className={th}>Role</th>
            <th className={th}>Account</th>
            <th className={th}>Sessions</th>
            <th className={th} />
          </tr>
        </thead>
        <tbody>
          {(users.data?.users ?? []).map((u) => (
            <tr key={u.name} className="border-t border-slate-200 dark:border-slate-800">
              <td className={td}>{u.name}</td>
              <td className={td}>{u.role}</td>
              <td className={td}>{u.source === 'local' ? 'local' : 'identity provider'}</td>
              <td className={td}>{u.sessions}</td>
              <td className={td}>
                <button type="button" className={btn} disabled={u.sessions === 0 || signOut.isPending} onClick={() => signOut.mutate(u.name)} aria-label={`Sign out everywhere: ${u.name}`}>
                  Sign out everywhere
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {users.isError && <p role="alert">{users.error.message}</p>}
    </section>
  );
}

function AuditLog() {
  const log = useQuery({ queryKey: ['admin', 'audit'], queryFn: ({ signal }) => call<{ entries: AdminAuditEntry[] }>('/api/admin/audit', { signal }), refetchInterval: 30_000 });
  return (
    <section aria-labelledby="audit-title" className="space-y-3">
      <h2 id="audit-title" className="text-lg font-semibold">
        Audit log
      </h2>
      <table className="w-full">
        <thead>
          <tr>
            <th className={th}>When</th>
            <th className={th}>Event</th>
            <th className={th}>By</th>
            <th className={th}>About</th>
            <th className={th}>Address</th>
            <th className={th}>Detail</th>
          </tr>
        </thead>
        <tbody>
          {(log.data?.entries ?? []).map((e) => (
            <tr key={e.id} className="border-t border-slate-200 dark:border-slate-800">
              <td className={`${td} whitespace-nowrap`}>{when(e.at)}</td>
              <td className={td}>{e.event}</td>
              <td className={td}>{e.actor ?? '—'}</td>
              <td className={td}>{e.subject ?? '—'}</td>
              <td className={td}>{e.address ?? '—'}</td>
              <td className={`${td} font-mono text-xs`}>{e.detail ? Object.entries(e.detail).map(([k, v]) => `${k}=${v}`).join(' ') : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {log.isError && <p role="alert">{log.error.message}</p>}
    </section>
  );
}
