import { z } from 'zod';

// Faults injected through the admin endpoint, to prove clients survive a bad upstream.

export interface Faults {
  /** Added before every answer, ms. */
  latencyMs: number;
  /** Share of requests answered with one of errorStatuses. */
  errorRate: number;
  errorStatuses: number[];
  /** Share of requests never answered (the connection stays open until the client gives up). */
  hangRate: number;
  /** Share of success bodies cut short (invalid JSON). */
  malformedRate: number;
  /** Extra fields, unknown state values and decimals as strings in every record. */
  drift: boolean;
  /** Share of success bodies with a field that breaks the contract (missing id, `last_latitude: "abc"`). */
  contractBreakRate: number;
  /** Keys answered with 401 as if revoked. */
  revokedKeys: string[];
  /** Keys moved to the standard plan (403 on locations). */
  downgradedKeys: string[];
  /** Scopes taken away from keys (403 on the operations that need them). */
  removedScopes: Record<string, string[]>;
  /** Every request answered 429 with this Retry-After. */
  storm429: { retryAfterS: number } | null;
}

export function noFaults(): Faults {
  return {
    latencyMs: 0,
    errorRate: 0,
    errorStatuses: [500, 503],
    hangRate: 0,
    malformedRate: 0,
    drift: false,
    contractBreakRate: 0,
    revokedKeys: [],
    downgradedKeys: [],
    removedScopes: {},
    storm429: null,
  };
}

const share = z.number().min(0).max(1);

export const faultsPatchSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  errorRate: share.optional(),
  errorStatuses: z.array(z.int().min(500).max(599)).min(1).optional(),
  hangRate: share.optional(),
  malformedRate: share.optional(),
  drift: z.boolean().optional(),
  contractBreakRate: share.optional(),
  revokedKeys: z.array(z.string()).optional(),
  downgradedKeys: z.array(z.string()).optional(),
  removedScopes: z.record(z.string(), z.array(z.string())).optional(),
  storm429: z.strictObject({ retryAfterS: z.int().min(1).max(86_400) }).nullable().optional(),
});

export type FaultsPatch = z.infer<typeof faultsPatchSchema>;

export function mergeFaults(current: Faults, patch: FaultsPatch): Faults {
  const next: Faults = { ...current };
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
  return next;
}
