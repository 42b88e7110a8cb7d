import type { Metadata } from 'next';
import Link from 'next/link';
import { authService } from '@/lib/auth';
import { safeNext } from '@/lib/auth/oidc';
import { pageViewer } from '@/lib/auth/page';
import { signInErrorFromQuery } from '@/lib/auth/sign-in-errors';

export const metadata: Metadata = { title: 'Sign in · Fleetmap' };

const input = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900';
const button = 'w-full rounded-md bg-slate-900 px-3 py-2 text-sm font-semibold text-white hover:bg-slate-700 dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-slate-300';

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;

/** The sign-in page: a password form (AUTH_MODE=local) or the organization's identity provider (AUTH_MODE=oidc). */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const next = safeNext(one(search.next));
  // A fixed sentence chosen by the code: the query's own text is never shown.
  const error = signInErrorFromQuery(one(search.error), one(search.wait));
  const mode = authService()?.config.mode ?? 'none';
  const viewer = await pageViewer();
  return (
    <main className="mx-auto mt-24 max-w-sm px-4">
      <h1 className="text-2xl font-semibold">Fleetmap</h1>
      {one(search.signedOut) && <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">You are signed out.</p>}
      {error && (
        <p id="signin-error" role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100">
          {error}
        </p>
      )}
      {viewer?.kind === 'user' && !one(search.switch) && (
        <p className="mt-4 text-sm">
          Signed in as <strong>{viewer.name}</strong> ({viewer.role}). <a href={next} className="underline">Continue</a>
        </p>
      )}
      {mode === 'none' && (
        <p className="mt-4 text-sm">
          Sign-in is off on this server: <Link href="/" className="underline">open the map</Link>.
        </p>
      )}
      {mode === 'oidc' && (
        <a href={`/api/auth/oidc/start?next=${encodeURIComponent(next)}`} className={`mt-6 block text-center ${button}`}>
          Sign in with your organization&apos;s account
        </a>
      )}
      {mode === 'local' && (
        <form method="post" action="/api/auth/signin" className="mt-6 space-y-4">
          <input type="hidden" name="next" value={next} />
          <label className="block text-sm font-medium">
            Name
            <input name="name" autoComplete="username" required maxLength={64} className={input} />
          </label>
          <label className="block text-sm font-medium">
            Password
            <input name="password" type="password" autoComplete="current-password" required maxLength={1024} className={input} />
          </label>
          <button type="submit" className={button}>
            Sign in
          </button>
        </form>
      )}
    </main>
  );
}
