import { z } from 'zod';
import { idSchema } from './responses';

// The history API's query parameters. Every bound is here, and every message names its parameter.

export const MAX_PERIOD_DAYS = 400;
export const MAX_TRACK_MS = 24 * 3_600_000;
const MAX_ROUTES = 200;
const DAY_MS = 86_400_000;

function isoDate(name: string) {
  return z
    .string({ error: `${name} is required (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date (YYYY-MM-DD)`)
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }, `${name} must be a real calendar date`);
}

/** An instant with its offset (`2026-03-04T08:40:00-05:00` or `…Z`), as epoch ms. */
function isoInstant(name: string) {
  return z
    .string({ error: `${name} is required (an ISO date-time with an offset)` })
    .max(40, `${name} is too long`)
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, `${name} must be an ISO date-time with an offset, e.g. 2026-03-04T08:40:00-05:00`)
    .transform((s) => Date.parse(s))
    .refine((ms) => Number.isFinite(ms), `${name} must be a real date-time`);
}

const routeIds = z
  .array(idSchema('route'))
  .max(MAX_ROUTES, `route may be given at most ${MAX_ROUTES} times`)
  .transform((ids) => (ids.length ? [...new Set(ids)] : null));

function threshold(name: string) {
  return z
    .string()
    .regex(/^[1-9]\d{0,3}$/, `${name} must be a whole number of minutes from 1 to 1440`)
    .transform(Number)
    .refine((n) => n <= 1440, `${name} must be a whole number of minutes from 1 to 1440`)
    .optional();
}

export const routesQuery = z
  .object({ from: isoDate('from'), to: isoDate('to'), route: routeIds, lateMin: threshold('lateMin'), earlyMin: threshold('earlyMin') })
  .refine((q) => q.from <= q.to, { message: 'to must not be before from', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1 <= MAX_PERIOD_DAYS, { message: `from..to spans more than ${MAX_PERIOD_DAYS} days`, path: ['to'] });

export const trackQuery = z
  .object({ from: isoInstant('from'), to: isoInstant('to') })
  .refine((q) => q.from < q.to, { message: 'to must be after from', path: ['to'] })
  .refine((q) => q.to - q.from <= MAX_TRACK_MS, { message: 'from..to spans more than 24 hours', path: ['to'] });

export const fleetQuery = z.object({ at: isoInstant('at'), route: routeIds });

/** The query string as an object for these schemas: `route` may repeat, every other parameter is one string. */
export function queryObject(url: URL): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const key of new Set(url.searchParams.keys())) out[key] = key === 'route' ? url.searchParams.getAll(key) : (url.searchParams.get(key) ?? undefined);
  out.route ??= [];
  return out;
}
