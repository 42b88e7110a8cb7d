// The app model of the upstream's resources: camelCase, numbers as numbers, booleans as booleans,
// timestamps as epoch milliseconds (converted from the upstream's zone-less local time by lib/partner).
// Components and the feed only ever see these shapes; wire shapes stay inside lib/partner.

export type EpochMs = number;

export interface Bus {
  id: number;
  plateNumber: string | null;
  internalCode: string | null;
  busName: string | null;
  seatsCount: number | null;
  brand: string | null;
  model: string | null;
  year: number | null;
  /** Raw upstream value (e.g. `available`); the set of values is not given by the spec. */
  currentStatus: string | null;
  /** Raw upstream value (e.g. `active`). */
  status: string | null;
  currentRouteId: number | null;
  lastGpsAt: EpochMs | null;
}

export interface Route {
  id: number;
  name: string;
  code: string | null;
  startName: string | null;
  endName: string | null;
  /** Unit not given by the spec: shown raw with a neutral label. */
  distanceEstimate: number | null;
  /** Unit not given by the spec: shown raw with a neutral label. */
  durationEstimate: number | null;
  status: string | null;
}

export interface RouteStop {
  id: number;
  routeId: number;
  stopName: string;
  stopOrder: number;
  latitude: number | null;
  longitude: number | null;
  isStart: boolean;
  isEnd: boolean;
  status: string | null;
}

export interface RouteStops {
  /** The spec does not list the fields of this object; we keep the few we recognise. */
  route: { id: number | null; name: string | null; code: string | null };
  stops: RouteStop[];
}

export interface Trip {
  id: number;
  routeId: number | null;
  busId: number | null;
  /** `YYYY-MM-DD` as sent (a calendar date, not an instant). */
  tripDate: string | null;
  /** Raw value; `outbound` is the only sample the spec gives. */
  direction: string | null;
  tripType: string | null;
  serviceKind: string | null;
  plannedDepartureAt: EpochMs | null;
  plannedArrivalAt: EpochMs | null;
  actualDepartureAt: EpochMs | null;
  actualArrivalAt: EpochMs | null;
  /** Raw operational state; never interpreted beyond display. */
  status: string | null;
  delayMinutes: number | null;
  routeName: string | null;
  routeCode: string | null;
  plateNumber: string | null;
  busName: string | null;
}

export interface BusLocation {
  busId: number;
  plateNumber: string | null;
  internalCode: string | null;
  busName: string | null;
  latitude: number | null;
  longitude: number | null;
  lastGpsAt: EpochMs | null;
  speedKmh: number | null;
  heading: number | null;
  accuracy: number | null;
}

export type PlanLevel = 'standard' | 'business';

export const SCOPES = ['buses:read', 'routes:read', 'stops:read', 'trips:read', 'gps:read'] as const;
export type Scope = (typeof SCOPES)[number];

export interface PartnerStatus {
  /** `API Standard` or `API Business`. */
  plan: string;
  level: PlanLevel;
  /** As listed by the upstream; unknown scope strings are kept. */
  scopes: string[];
  rateLimitPerMinute: number;
}

/** meta.rate_limit of a response, with reset_at resolved to an instant. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** When the window resets, as epoch ms; null when reset_at could not be interpreted. */
  resetAt: EpochMs | null;
  /** The raw reset_at integer as sent. */
  resetAtRaw: number;
}

export interface Paged<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}
