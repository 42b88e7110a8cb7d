import { formatDay } from './clock';
import type { SimBus } from './fleet';
import type { SimRoute } from './network';
import { KIND_SHIFT, SERVICE_KINDS, TRIP_SHORT_TURN } from './schedule';
import type { TripRef, World } from './world';

// Records as the API writes them (snake_case). The spec lets decimals arrive as strings and flags as 0/1;
// the simulator does both for a fixed part of the records so clients meet them on every run:
// decimals as strings for every third id, 0/1 flags for routes with an even id.

export interface WireOptions {
  /** Fault "drift": extra fields, unknown state values, decimals as strings everywhere. */
  drift: boolean;
}

type Decimal = number | string;

function decimal(value: number | null, digits: number, asString: boolean): Decimal | null {
  if (value === null || !Number.isFinite(value)) return null;
  return asString ? value.toFixed(digits) : Number(value.toFixed(digits));
}

const decimalsAsStrings = (id: number, o: WireOptions) => o.drift || id % 3 === 0;

export function routeRecord(route: SimRoute, o: WireOptions) {
  const d0 = route.directions[0]!;
  const record: Record<string, unknown> = {
    id: route.id,
    name: route.name,
    code: route.code,
    start_name: d0.stops[0]!.name,
    end_name: d0.stops[d0.stops.length - 1]!.name,
    // Kilometres along the outbound shape, and planned outbound minutes (spec leaves units open).
    distance_estimate: decimal(d0.line.lengthM / 1000, 3, decimalsAsStrings(route.id, o)),
    duration_estimate: Math.round(d0.durationS / 60),
    status: 'active',
  };
  if (o.drift) Object.assign(record, { color: `#${route.color}`, updated_at_v2: '2026-01-01T00:00:00Z', service_kind: route.serviceKind });
  return record;
}

/** Stop record ids are numbered across the whole network, outbound stops first, in route order. */
export function routeStopIdBase(routes: SimRoute[]): number[] {
  const bases: number[] = [];
  let next = 1;
  for (const r of routes) {
    bases.push(next);
    next += r.directions.reduce((n, d) => n + d.stops.length, 0);
  }
  return bases;
}

export function routeStopRecords(route: SimRoute, idBase: number, o: WireOptions) {
  const asInt = route.id % 2 === 0;
  const flag = (v: boolean) => (asInt ? (v ? 1 : 0) : v);
  const items: Record<string, unknown>[] = [];
  for (const d of route.directions) {
    d.stops.forEach((stop, i) => {
      const order = items.length + 1;
      const record: Record<string, unknown> = {
        id: idBase + order - 1,
        route_id: route.id,
        stop_name: stop.name,
        stop_order: order,
        latitude: stop.lat,
        longitude: stop.lon,
        // Each direction is one run of stops: it starts at is_start and ends at is_end.
        is_start: flag(i === 0),
        is_end: flag(i === d.stops.length - 1),
        status: 'active',
      };
      if (o.drift) Object.assign(record, { direction_id: d.directionId, wheelchair_boarding: 1 });
      items.push(record);
    });
  }
  return items;
}

const BUS_STATUS: Record<SimBus['condition'], string> = { active: 'active', maintenance: 'maintenance', inactive: 'inactive' };

export function busRecord(world: World, bus: SimBus, tMs: number, o: WireOptions) {
  const state = world.busState(bus, tMs);
  const fix = world.lastFixMs(bus, tMs);
  const route = bus.routeIndex >= 0 ? world.net.routes[bus.routeIndex]! : null;
  const record: Record<string, unknown> = {
    id: bus.id,
    plate_number: bus.plateNumber,
    internal_code: bus.internalCode,
    bus_name: bus.busName,
    seats_count: bus.seats,
    brand: bus.brand,
    model: bus.model,
    year: bus.year,
    current_status: o.drift && state.activity === 'in_service' ? 'in_service_v2' : state.activity,
    status: BUS_STATUS[bus.condition],
    current_route_id: route && bus.condition === 'active' ? route.id : null,
    last_gps_at: fix ? world.zone.format(fix.atMs) : null,
  };
  if (o.drift) Object.assign(record, { depot_code: 'MQ', fuel_level_pct: 64 });
  return record;
}

export function locationRecord(world: World, bus: SimBus, tMs: number, o: WireOptions) {
  const fix = world.fix(bus, tMs);
  const s = decimalsAsStrings(bus.id, o);
  const record: Record<string, unknown> = {
    id: bus.id,
    plate_number: bus.plateNumber,
    internal_code: bus.internalCode,
    bus_name: bus.busName,
    last_latitude: decimal(fix?.lat ?? null, 6, s),
    last_longitude: decimal(fix?.lon ?? null, 6, s),
    last_gps_at: fix ? world.zone.format(fix.atMs) : null,
    last_speed_kmh: decimal(fix?.speedKmh ?? null, 1, s),
    last_heading: decimal(fix ? fix.heading % 360 : null, 1, s),
    last_accuracy: decimal(fix?.accuracyM ?? null, 1, s),
  };
  if (record.last_heading === '360.0' || record.last_heading === 360) record.last_heading = s ? '0.0' : 0;
  if (o.drift) Object.assign(record, { last_altitude_m: '12.5', satellites: 9 });
  return record;
}

export function tripRecord(world: World, ref: TripRef, tMs: number, o: WireOptions) {
  const { s, k } = ref;
  const route = world.net.routes[s.route[k]!]!;
  const bus = world.tripBus(ref, tMs);
  const state = world.tripStatus(ref, tMs);
  const fmt = (ms: number | null) => (ms === null ? null : world.zone.format(ms));
  const record: Record<string, unknown> = {
    id: world.tripId(ref),
    route_id: route.id,
    bus_id: bus?.id ?? null,
    trip_date: formatDay(s.day),
    direction: s.dir[k] === 0 ? 'outbound' : 'inbound',
    trip_type: s.kind[k]! & TRIP_SHORT_TURN ? 'short_turn' : 'regular',
    service_kind: SERVICE_KINDS[s.kind[k]! >> KIND_SHIFT] ?? 'local',
    planned_departure_at: fmt(s.baseMs + s.depS[k]! * 1000),
    planned_arrival_at: fmt(s.baseMs + s.arrS[k]! * 1000),
    actual_departure_at: fmt(state.actualDepartureMs),
    actual_arrival_at: fmt(state.actualArrivalMs),
    status: o.drift && state.status === 'started' ? 'en_route_v2' : state.status,
    delay_minutes: state.delayMinutes,
    route_name: route.name,
    route_code: route.code,
    plate_number: bus?.plateNumber ?? null,
    bus_name: bus?.busName ?? null,
  };
  if (o.drift) Object.assign(record, { headsign: route.directions[s.dir[k]!]!.headsign, block_id: `${route.code}-${bus?.slot ?? 0}` });
  return record;
}
