'use client';
import Link from 'next/link';
import { useViewer } from '@/lib/client/use-viewer';

/**
 * Who is signed in, in the header: "no sign-in (local only)" when sign-in is off on loopback, a warning when it is
 * off on an address others reach, else the user, their role, the admin page for admins, and sign-out (a form
 * POST: it works before the page's script has loaded).
 */
export function AccessBadge() {
  const viewer = useViewer();
  if (viewer.kind === 'wall') return null;
  if (viewer.kind === 'open') {
    if (!viewer.warning) return <span className="text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">no sign-in (local only)</span>;
    return (
      <span role="alert" title={viewer.warning} className="rounded bg-red-700 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white">
        no sign-in: anyone who reaches this server sees the fleet
      </span>
    );
  }
  return (
    <div className="flex items-center gap-2 text-xs whitespace-nowrap">
      <span aria-label="Signed in as">
        <span className="font-medium">{viewer.name}</span> <span className="text-slate-500 dark:text-slate-400">({viewer.role})</span>
      </span>
      {viewer.role === 'admin' && (
        <Link href="/admin" className="hover:underline">
          Admin
        </Link>
      )}
      <form method="post" action="/api/auth/signout">
        <button type="submit" className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
          Sign out
        </button>
      </form>
    </div>
  );
}
