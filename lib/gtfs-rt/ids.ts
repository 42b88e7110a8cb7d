// Partner API ids to GTFS ids: a configurable prefix per kind, and for routes and stops a mapping file (an agency's
// static GTFS may use ids of its own). docs/gtfs-realtime.md has the table.

export interface GtfsIdConfig {
  tripPrefix: string;
  routePrefix: string;
  stopPrefix: string;
  vehiclePrefix: string;
  /** GTFS_ID_MAP's rows: partner route id → GTFS route_id, partner stop id → GTFS stop_id (no prefix added). */
  routes: Map<number, string>;
  stops: Map<number, string>;
}

export const DEFAULT_IDS: GtfsIdConfig = { tripPrefix: '', routePrefix: '', stopPrefix: '', vehiclePrefix: '', routes: new Map(), stops: new Map() };

export interface GtfsIds {
  trip(id: number): string;
  route(id: number): string;
  stop(id: number): string;
  vehicle(id: number): string;
}

export function gtfsIds(c: GtfsIdConfig): GtfsIds {
  return {
    trip: (id) => `${c.tripPrefix}${id}`,
    route: (id) => c.routes.get(id) ?? `${c.routePrefix}${id}`,
    stop: (id) => c.stops.get(id) ?? `${c.stopPrefix}${id}`,
    vehicle: (id) => `${c.vehiclePrefix}${id}`,
  };
}

export type IdMap = { ok: true; routes: Map<number, string>; stops: Map<number, string> } | { ok: false; message: string };

const GTFS_ID_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * GTFS_ID_MAP's CSV: a header `kind,partner_id,gtfs_id`, then one row per id, kind `route` or `stop`. Blank lines
 * and lines starting with # are skipped. Any other line is an error that names its line number.
 */
export function parseIdMap(text: string): IdMap {
  const routes = new Map<number, string>();
  const stops = new Map<number, string>();
  const lines = text.split(/\r?\n/);
  let header = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(',').map((c) => c.trim());
    if (!header) {
      if (cells.join(',').toLowerCase() !== 'kind,partner_id,gtfs_id') return { ok: false, message: `line ${i + 1}: the header must be kind,partner_id,gtfs_id` };
      header = true;
      continue;
    }
    if (cells.length !== 3) return { ok: false, message: `line ${i + 1}: expected 3 cells (kind,partner_id,gtfs_id), got ${cells.length}` };
    const [kind, partner, gtfs] = cells as [string, string, string];
    if (kind !== 'route' && kind !== 'stop') return { ok: false, message: `line ${i + 1}: kind must be route or stop` };
    if (!/^[1-9][0-9]{0,15}$/.test(partner) || !Number.isSafeInteger(Number(partner))) return { ok: false, message: `line ${i + 1}: partner_id must be a positive whole number` };
    if (!GTFS_ID_RE.test(gtfs)) return { ok: false, message: `line ${i + 1}: gtfs_id must be 1 to 255 printable characters without spaces` };
    const map = kind === 'route' ? routes : stops;
    if (map.has(Number(partner))) return { ok: false, message: `line ${i + 1}: ${kind} ${partner} is mapped twice` };
    map.set(Number(partner), gtfs);
  }
  if (!header) return { ok: false, message: 'the file is empty (it needs the header kind,partner_id,gtfs_id)' };
  return { ok: true, routes, stops };
}
