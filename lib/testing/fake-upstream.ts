import { SCOPES, type Bus, type BusLocation, type Paged, type PartnerStatus, type Route, type RouteStops, type Trip } from '@/lib/model';
import { DEFAULT_PER_PAGE, PartnerError, type PageRequest, type PartnerClient, type PartnerOperation, type PartnerResponse, type TimeRule } from '@/lib/partner';
import { PLAN_NAMES } from '@/lib/sim/keys';
import { RateLimiter } from '@/lib/sim/rate-limit';
import type { Clock } from '@/lib/fleet/clock';
import { maxInAnyMinute } from './harness';

// A scripted upstream for the feed's unit tests: a PartnerClient whose answers are made bus by bus on a fake
// clock, with a log of every request and switches for 401s, 429 storms, unknown or unreadable buses and the
// wall-clock offset of its times. The simulator (lib/sim) is the upstream everywhere else; a second one is needed
// because these tests pin what the simulator cannot: exactly which buses run a trip (1..onTrip), four speed
// classes so the scheduler's weighting shows, one bus that always answers 404 or breaks the contract, a chosen
// timezone offset, request latency on the fake clock, and a scripted network whose GeoJSON a test can spell out.
// The simulator's timetable decides those by itself, on the Manhattan network. What both share, the fake takes
// from the simulator: its fixed-window rate limiter (lib/sim/rate-limit) and its plan names. It answers in the
// app model, as lib/partner's client would after parsing, and fails with the PartnerErrors that client throws.

export interface FakeCall {
  at: number;
  op: PartnerOperation;
  id: number | null;
  status: number;
  /** The page a list operation asked for. */
  page?: number;
}

export interface FakeUpstreamOptions {
  clock: Clock;
  buses: number;
  /** Buses 1..onTrip run an active trip. */
  onTrip: number;
  limit: number;
  level?: 'business' | 'standard';
  scopes?: string[];
  latencyMs?: number;
  /** Offset (minutes) of the wall clock the upstream writes its times in. */
  wallOffsetMin?: number;
  routes?: number;
}

const KEY = 'fake-key';
const WINDOW_MS = 60_000;

export class FakeUpstream {
  readonly calls: FakeCall[] = [];
  revoked = false;
  /** While now < stormUntil every request answers 429 with this Retry-After. */
  stormUntil = 0;
  stormRetryAfterS = 5;
  /** While true every request answers 503 (an outage). */
  down = false;
  /** Buses whose location answers 404 (the upstream no longer knows them). */
  readonly unknownBuses = new Set<number>();
  /** Buses whose location record breaks the contract on every read. */
  readonly unreadableBuses = new Set<number>();
  /** Trips that have ended: gone from /trips/active, and /trips/{id} answers them completed. */
  readonly finishedTrips = new Set<number>();
  /** While true, /trips/active answers every page after the first empty, though the first announced more. */
  cutShortTrips = false;
  /** Buses whose GPS stopped reporting: every answer repeats the same fix. */
  readonly stuckGps = new Set<number>();
  /** When a stuck GPS reported last. */
  static readonly STUCK_GPS_AT = Date.UTC(2026, 0, 15, 11, 0, 0);
  private readonly limiter: RateLimiter;
  private readonly o: Required<FakeUpstreamOptions>;

  constructor(opts: FakeUpstreamOptions) {
    this.o = { level: 'business', scopes: [...SCOPES], latencyMs: 50, wallOffsetMin: 0, routes: 10, ...opts };
    this.limiter = new RateLimiter(WINDOW_MS, () => opts.clock.now());
  }

  get clock(): Clock {
    return this.o.clock;
  }

  /** Bus speed in km/h: a spread from parked-in-traffic to express, so the sqrt weighting matters. */
  speedOf(busId: number): number {
    return busId > this.o.onTrip ? 0 : [4, 12, 25, 45][busId % 4]!;
  }

  count(op?: PartnerOperation, from = Number.NEGATIVE_INFINITY): number {
    return this.calls.filter((c) => (!op || c.op === op) && c.at >= from).length;
  }

  /** Largest number of requests sent in any 60 s window [t, t + 60 s). */
  maxInAnyMinute(): number {
    return maxInAnyMinute(this.calls.map((c) => c.at));
  }

  client(timeRule: () => TimeRule): PartnerClient {
    const page = <T>(all: T[], p: PageRequest = {}, cutShort = false): Paged<T> => {
      const perPage = p.perPage ?? DEFAULT_PER_PAGE;
      const n = p.page ?? 1;
      const items = cutShort && n > 1 ? [] : all.slice((n - 1) * perPage, n * perPage);
      return { items, page: n, perPage, total: all.length, totalPages: Math.max(1, Math.ceil(all.length / perPage)) };
    };
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    return {
      status: () => this.answer('status', null, (): PartnerStatus => ({
        plan: PLAN_NAMES[this.o.level],
        level: this.o.level,
        scopes: this.o.scopes,
        rateLimitPerMinute: this.o.limit,
      })),
      listBuses: (p) => this.answer('listBuses', null, () => page(ids(this.o.buses).map((id) => this.bus(id, timeRule())), p), p?.page ?? 1),
      listRoutes: (p) => this.answer('listRoutes', null, () => page(ids(this.o.routes).map((id) => this.route(id)), p), p?.page ?? 1),
      routeStops: (id) => this.answer('routeStops', id, () => this.stops(id)),
      activeTrips: (p) =>
        this.answer('activeTrips', null, () =>
          page(
            ids(this.o.onTrip)
              .filter((id) => !this.finishedTrips.has(id))
              .map((id) => this.trip(id, timeRule())),
            p,
            this.cutShortTrips,
          ),
          p?.page ?? 1,
        ),
      trip: (id) => this.answer('trip', id, () => this.trip(id, timeRule())),
      busLocation: (id) => this.answer('busLocation', id, () => this.location(id, timeRule())),
    };
  }

  private async answer<T>(op: PartnerOperation, id: number | null, make: () => T, page?: number): Promise<PartnerResponse<T>> {
    const at = this.clock.now();
    const window = this.limiter.take(KEY, this.o.limit);
    const path = id === null ? `/${op}` : `/${op}/${id}`;
    const fail = (status: number, retryAfterS: number | null = null) => {
      this.calls.push({ at, op, id, status, page });
      return new PartnerError({ kind: 'http', status, message: `HTTP ${status}`, operation: op, path, retryAfterS, correlationId: `corr-${this.calls.length}` });
    };
    if (this.o.latencyMs > 0) await this.clock.sleep(this.o.latencyMs);
    if (this.revoked) throw fail(401);
    if (this.down) throw fail(503);
    if (at < this.stormUntil) throw fail(429, this.stormRetryAfterS);
    if (!window.allowed) throw fail(429, this.limiter.retryAfterS(window));
    if (op === 'busLocation' && (this.o.level !== 'business' || !this.o.scopes.includes('gps:read'))) throw fail(403);
    if ((op === 'trip' || op === 'busLocation') && id! > this.o.buses * 2) throw fail(404);
    if (op === 'busLocation' && this.unknownBuses.has(id!)) throw fail(404);
    if (op === 'busLocation' && this.unreadableBuses.has(id!)) {
      this.calls.push({ at, op, id, status: 200, page });
      throw new PartnerError({ kind: 'contract', status: 200, message: `The response of ${path} breaks the contract: data.last_latitude: expected number (got "abc").`, operation: op, path, field: 'data.last_latitude' });
    }
    this.calls.push({ at, op, id, status: 200, page });
    const resetAt = window.resetAtMs;
    return { data: make(), rateLimit: { limit: this.o.limit, remaining: window.remaining, resetAt, resetAtRaw: resetAt }, requestId: null, scope: null, status: 200 };
  }

  /** An instant as the client would parse the upstream's wall-clock text under the rule. */
  private asParsed(instant: number, rule: TimeRule): number {
    const wallAsUtc = instant + this.o.wallOffsetMin * 60_000;
    return rule.kind === 'offset' ? wallAsUtc - rule.minutes * 60_000 : instant;
  }

  private bus(id: number, rule: TimeRule): Bus {
    return fakeBus(id, { lastGpsAt: this.asParsed(this.clock.now() - 20_000, rule) });
  }

  private route(id: number): Route {
    return { id, name: `Route ${id}`, code: `R${id}`, startName: null, endName: null, distanceEstimate: null, durationEstimate: null, status: 'active' };
  }

  private stops(routeId: number): RouteStops {
    const stops = [3, 1, 2].map((order) => ({
      id: routeId * 100 + order,
      routeId,
      stopName: `Stop ${order}`,
      stopOrder: order,
      latitude: 40.7 + order / 100,
      longitude: -74 + routeId / 100,
      isStart: order === 1,
      isEnd: order === 3,
      status: null,
    }));
    return { route: { id: routeId, name: `Route ${routeId}`, code: `R${routeId}` }, stops };
  }

  private trip(id: number, rule: TimeRule): Trip {
    const trip = fakeTrip(id, { routeId: (id % this.o.routes) + 1, busId: id <= this.o.onTrip ? id : null, start: this.asParsed(this.clock.now() - 10 * 60_000, rule) });
    return this.finishedTrips.has(id) ? { ...trip, status: 'completed', actualArrivalAt: this.asParsed(this.clock.now() - 60_000, rule) } : trip;
  }

  private location(id: number, rule: TimeRule): BusLocation {
    const now = this.stuckGps.has(id) ? FakeUpstream.STUCK_GPS_AT : this.clock.now();
    const km = (this.speedOf(id) * (now - Date.UTC(2026, 0, 15))) / 3_600_000;
    return {
      busId: id,
      plateNumber: `P-${id}`,
      internalCode: `B${id}`,
      busName: `Bus ${id}`,
      latitude: 40.7 + (id % 50) / 1000 + km / 111,
      longitude: -74 + Math.floor(id / 50) / 1000,
      lastGpsAt: this.asParsed(now - 3_000, rule),
      // A stuck GPS answers its last fix over and over (the spec's last_gps_at is the fix's own time).
      speedKmh: this.speedOf(id),
      heading: 0,
      accuracy: 5,
    };
  }
}

/** A bus as the fake lists it (its GPS time given by the caller). */
export function fakeBus(id: number, over: Partial<Bus> = {}): Bus {
  return {
    id,
    plateNumber: `P-${id}`,
    internalCode: `B${id}`,
    busName: `Bus ${id}`,
    seatsCount: 40,
    brand: null,
    model: null,
    year: null,
    currentStatus: 'available',
    status: 'active',
    currentRouteId: null,
    lastGpsAt: null,
    ...over,
  };
}

/** A trip under way as the fake answers it: bus `id`, started at `start` (epoch ms), planned to take an hour. */
export function fakeTrip(id: number, { start, ...over }: Partial<Trip> & { start: number }): Trip {
  return {
    id,
    routeId: 1,
    busId: id,
    tripDate: '2026-01-15',
    direction: 'outbound',
    tripType: null,
    serviceKind: null,
    plannedDepartureAt: start,
    plannedArrivalAt: start + 3_600_000,
    actualDepartureAt: start,
    actualArrivalAt: null,
    status: 'started',
    delayMinutes: id % 9,
    routeName: null,
    routeCode: null,
    plateNumber: `P-${id}`,
    busName: `Bus ${id}`,
    ...over,
  };
}
