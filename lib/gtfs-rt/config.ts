import 'server-only';
import { readFileSync } from 'node:fs';
import { parseIdMap, type GtfsIdConfig } from './ids';

// The GTFS-Realtime feed's ids (docs/gtfs-realtime.md): a prefix per kind, and GTFS_ID_MAP, a CSV file that maps
// partner route and stop ids to the agency's static GTFS ids. Validated at start-up with the rest of the
// configuration (validateConfigAtStartup, lib/server/config-check.ts).

type Env = Record<string, string | undefined>;

export type GtfsRtConfigResult = { ok: true; config: GtfsIdConfig } | { ok: false; problems: string[] };

const PREFIX_RE = /^[A-Za-z0-9_.:-]{0,32}$/;

export function readGtfsRtConfig(env: Env = process.env): GtfsRtConfigResult {
  const problems: string[] = [];
  const prefix = (name: string): string => {
    const v = (env[name] ?? '').trim();
    if (!PREFIX_RE.test(v)) problems.push(`${name} must be at most 32 letters, digits or _ . : - (got ${JSON.stringify(v.slice(0, 40))})`);
    return v;
  };
  const config: GtfsIdConfig = {
    tripPrefix: prefix('GTFS_TRIP_ID_PREFIX'),
    routePrefix: prefix('GTFS_ROUTE_ID_PREFIX'),
    stopPrefix: prefix('GTFS_STOP_ID_PREFIX'),
    vehiclePrefix: prefix('GTFS_VEHICLE_ID_PREFIX'),
    routes: new Map(),
    stops: new Map(),
  };
  const file = (env.GTFS_ID_MAP ?? '').trim();
  if (file) {
    let text: string | null = null;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      problems.push(`GTFS_ID_MAP: cannot read ${file} (${e instanceof Error && 'code' in e ? String(e.code) : 'error'})`);
    }
    if (text !== null) {
      const map = parseIdMap(text);
      if (!map.ok) problems.push(`GTFS_ID_MAP (${file}): ${map.message}`);
      else {
        config.routes = map.routes;
        config.stops = map.stops;
      }
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, config };
}

let cached: { env: Env; config: GtfsIdConfig } | null = null;

/** The validated configuration (start-up has already refused a bad one). */
export function gtfsRtConfig(env: Env = process.env): GtfsIdConfig {
  if (cached?.env === env) return cached.config;
  const r = readGtfsRtConfig(env);
  if (!r.ok) throw new Error(`Invalid GTFS-Realtime configuration:\n  - ${r.problems.join('\n  - ')}`);
  cached = { env, config: r.config };
  return r.config;
}
