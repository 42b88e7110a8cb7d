// What the sign-in page may say when a sign-in failed. The page is sent back with a code (and a wait in seconds),
// never a sentence: a link with `?error=<any text>` made the page show whatever the link said, as its alert (a
// phone number to call, a site to visit). The sentences are the page's own, chosen by the code.

export const SIGN_IN_ERRORS = {
  credentials: 'The name or the password is wrong.',
  throttled: 'Too many failed sign-ins.',
  incomplete: 'A name and a password are needed.',
  unreadable: 'The sign-in form could not be read.',
  'password-off': 'Sign-in with a password is off here.',
  'provider-off': 'Sign-in through an identity provider is off here.',
  'provider-unreachable': 'The identity provider could not be reached; try again in a moment.',
  'provider-refused': 'The identity provider refused the sign-in.',
  'provider-failed': 'The sign-in could not be completed; please sign in again.',
  'no-role': "Your account has no Fleetmap role: ask an administrator to add you to one of Fleetmap's groups.",
  'name-taken': 'Your name belongs to a local account here; an administrator must remove it first.',
} as const;

export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS;

/** Said of a wait: the sign-in page and the JSON answers word it alike. */
export function tryAgainIn(waitS: number): string {
  return `Too many failed sign-ins: try again in ${waitS < 120 ? `${waitS} s` : `${Math.ceil(waitS / 60)} min`}.`;
}

/** The sentence for a failed sign-in, with the wait when there is one (the throttled code says only the wait). */
export function signInErrorSentence(code: SignInErrorCode, waitS: number | null): string {
  if (waitS === null || waitS <= 0) return SIGN_IN_ERRORS[code];
  return code === 'throttled' ? tryAgainIn(waitS) : `${SIGN_IN_ERRORS[code]} ${tryAgainIn(waitS)}`;
}

/** The page's alert for `?error=&wait=`: a known code's sentence, one fixed sentence for anything else, or null. */
export function signInErrorFromQuery(code: string | null, wait: string | null): string | null {
  if (code === null || code === '') return null;
  if (!Object.hasOwn(SIGN_IN_ERRORS, code)) return 'The sign-in did not succeed; please try again.';
  const waitS = wait !== null && /^\d{1,5}$/.test(wait) ? Number(wait) : null;
  return signInErrorSentence(code as SignInErrorCode, waitS);
}

/** The sign-in page's address for a failure (percent-encoded; `next` is already a safe path). */
export function signInErrorPath(code: SignInErrorCode, opts: { waitS?: number; next?: string } = {}): string {
  const q = new URLSearchParams({ error: code });
  if (opts.waitS) q.set('wait', String(opts.waitS));
  if (opts.next && opts.next !== '/') q.set('next', opts.next);
  return `/signin?${q.toString()}`;
}
