'use client';
import { useQueryClient } from '@tanstack/react-query';

// What the admin page's sections share: the fetch they change things with (Origin: this site, which the server's
// CSRF check asks for), the refresh after a change, and the table and button styles.

export async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { Accept: 'application/json', ...(init?.body ? { 'Content-Type': 'application/json' } : {}) } });
  const body = (await res.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!res.ok) throw new Error(body?.error?.message ?? `${res.status} ${res.statusText}`);
  return body as T;
}

/**
 * After a change: every admin list read again. A list's first read may still be in flight, begun before the
 * change (a slow first load); React Query would hand that answer back instead of asking again, so it is
 * cancelled first and the lists are read anew.
 */
export function useRefreshAdmin(): () => Promise<void> {
  const qc = useQueryClient();
  return async () => {
    await qc.cancelQueries({ queryKey: ['admin'] });
    await qc.invalidateQueries({ queryKey: ['admin'] });
  };
}

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
export const th = 'px-2 py-1 text-left font-medium text-slate-500 dark:text-slate-400';
export const td = 'px-2 py-1 align-top';
export const btn = 'rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800';
