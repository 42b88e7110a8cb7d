/** A key's row of failed sign-ins (lib/auth/store.ts keeps them). */
export interface ThrottleRow {
  key: string;
  failures: number;
  lastFailureAt: Date;
  blockedUntil: Date;
}

// Sign-in throttling: a few free failures per account and per address, then each further failure makes the next
// attempt wait twice as long (1 s, 2 s, 4 s… up to 15 min). Rows live in the store, so every instance counts the
// same failures. A quiet hour forgets an address's or account's past failures.

export interface ThrottlePolicy {
  /** Failures allowed before any wait. */
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** After this long without a failure, the count starts again. */
  forgetAfterMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = { free: 3, baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetAfterMs: 3_600_000 };
// An office behind one NAT address shares it: more free failures there before anyone waits.
export const ADDRESS_POLICY: ThrottlePolicy = { free: 10, baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetAfterMs: 3_600_000 };

export const accountKey = (name: string) => `account:${name.toLowerCase()}`;
export const addressKey = (address: string) => `address:${address}`;

/** How long the next attempt must wait after `failures` failures in a row. */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  const over = failures - policy.free;
  return over > 0 ? Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (over - 1)) : 0;
}

/** Milliseconds until the key may try again (0: now). */
export function waitMs(row: ThrottleRow | null, now: Date): number {
  return row ? Math.max(0, row.blockedUntil.getTime() - now.getTime()) : 0;
}
