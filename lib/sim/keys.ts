import { z } from 'zod';
import { SCOPES, type Scope } from '../model/transit';

// Integration keys the simulator accepts: three built-in demo keys, or SIM_KEYS (a JSON array). The scopes are
// the spec's, as lib/model lists them.

export type SimScope = Scope;
export type SimPlan = 'standard' | 'business';

export const PLAN_NAMES: Record<SimPlan, string> = { standard: 'API Standard', business: 'API Business' };

export interface ApiKey {
  key: string;
  plan: SimPlan;
  scopes: SimScope[];
  limitPerMinute: number;
}

export const DEMO_BUSINESS_KEY = 'demo-business-key';
export const DEMO_STANDARD_KEY = 'demo-standard-key';
export const DEMO_NARROW_KEY = 'demo-narrow-key';

export function demoKeys(limitPerMinute: number): ApiKey[] {
  return [
    { key: DEMO_BUSINESS_KEY, plan: 'business', scopes: [...SCOPES], limitPerMinute },
    { key: DEMO_STANDARD_KEY, plan: 'standard', scopes: SCOPES.filter((s) => s !== 'gps:read'), limitPerMinute },
    { key: DEMO_NARROW_KEY, plan: 'business', scopes: ['routes:read', 'stops:read'], limitPerMinute },
  ];
}

const keyEntrySchema = z.strictObject({
  key: z
    .string({ error: 'must be a string' })
    .min(8, 'must be at least 8 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  plan: z.enum(['standard', 'business'], { error: 'must be "standard" or "business"' }),
  scopes: z.array(z.enum(SCOPES, { error: `must be one of ${SCOPES.join(', ')}` })),
  limit_per_minute: z.int({ error: 'must be an integer' }).min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000').optional(),
});

const keysSchema = z
  .array(keyEntrySchema, { error: 'must be a JSON array of {"key","plan","scopes","limit_per_minute"} objects' })
  .min(1, 'must list at least one key')
  .refine((keys) => new Set(keys.map((k) => k.key)).size === keys.length, 'lists the same key twice');

/** Parses SIM_KEYS. Throws an Error naming each problem (never echoing a key). */
export function parseKeysJson(json: string, defaultLimitPerMinute: number): ApiKey[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new Error(`SIM_KEYS is not valid JSON (${(e as Error).message})`);
  }
  const parsed = keysSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `SIM_KEYS${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')} ${i.message}`);
    throw new Error(problems.join('; '));
  }
  return parsed.data.map((k) => ({ key: k.key, plan: k.plan, scopes: [...new Set(k.scopes)], limitPerMinute: k.limit_per_minute ?? defaultLimitPerMinute }));
}

/** What may be printed or counted about a key: its first four characters. */
export function maskKey(key: string): string {
  return `${key.slice(0, 4)}…`;
}
