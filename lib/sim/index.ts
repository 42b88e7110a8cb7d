import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_PATH, handlePartner, type PartnerAnswer, type PartnerContext } from './api';
import { ZoneTime, createSimClock, formatDay } from './clock';
import { defaultNetwork } from './default-network';
import { faultsPatchSchema, mergeFaults, noFaults, type Faults, type FaultsPatch } from './faults';
import { buildFleet } from './fleet';
import { incidentRequestSchema, type Incident, type IncidentRequest } from './incidents';
import { demoKeys, type ApiKey } from './keys';
import { prepareNetwork, type NetworkData, type SimNetwork } from './network';
import type { SimulatorOptions } from './options';
import { seededStream } from './random';
import { RateLimiter } from './rate-limit';
import { planFleet, type FleetPlan } from './schedule';
import { RequestStats, type StatsSnapshot } from './stats';
import { routeStopIdBase } from './wire';
import { World, type GpsState } from './world';

export { BASE_PATH } from './api';
export { DEMO_BUSINESS_KEY, DEMO_NARROW_KEY, DEMO_STANDARD_KEY, PLAN_NAMES, maskKey, type ApiKey } from './keys';
export type { Faults, FaultsPatch } from './faults';
export type { StatsSnapshot } from './stats';
export { INCIDENT_KINDS, type Incident, type IncidentKind, type IncidentRequest } from './incidents';
export { simOptionsFromEnv, simRunnerFromEnv, type SimulatorOptions } from './options';
export { zoneAtLocalHour } from './clock';

export interface TruthBus {
  id: number;
  lat: number;
  lon: number;
  speedKmh: number;
  heading: number;
  onTrip: boolean;
  /** On a trip: metres along its direction's line, the true order of the buses of a direction; else null. */
  alongM: number | null;
  gps: GpsState;
}

/** An active trip (as /trips/active lists it at `at`) and the delay_minutes it carries then. */
export interface TruthTrip {
  id: number;
  busId: number | null;
  delayMinutes: number | null;
}

export interface Truth {
  /** Sim time of these positions, epoch ms. */
  at: number;
  buses: TruthBus[];
  /** The active trips at `at`, in trip id order. */
  trips: TruthTrip[];
  /** Every incident made (ended ones too), with `active` at `at`. */
  incidents: (Incident & { active: boolean })[];
}

export interface SimClockInfo {
  simTime: number;
  local: string;
  serviceDate: string;
  timezone: string;
  speed: number;
  realTime: number;
}

export interface Simulator {
  listen(port?: number, host?: string): Promise<{ baseUrl: string; port: number }>;
  close(): Promise<void>;
  /** Let the process exit even while the server listens (embedded use). */
  unref(): void;
  truth(): Truth;
  faults(): Faults;
  setFaults(patch: FaultsPatch): Faults;
  resetFaults(): Faults;
  /** Starts an incident now (sim time); throws on a bad request or when no bus or trip fits. */
  addIncident(request: IncidentRequest): Incident;
  /** Ends an incident now; null for an unknown id. */
  endIncident(id: number): Incident | null;
  /** Ends every incident now. */
  endIncidents(): void;
  incidents(): Incident[];
  stats(): StatsSnapshot;
  resetStats(): void;
  clock(): SimClockInfo;
  /** Sim time, epoch ms. */
  now(): number;
  readonly keys: readonly ApiKey[];
  readonly plan: FleetPlan;
  readonly world: World;
  readonly admin: boolean;
}

const ADMIN_PREFIX = '/__admin';
const MAX_ADMIN_BODY = 64 * 1024;

function resolveNetwork(network: NetworkData | undefined): SimNetwork {
  return network ? prepareNetwork(network) : defaultNetwork();
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const seed = options.seed ?? 42;
  const realNow = options.now ?? Date.now;
  const net = resolveNetwork(options.network);
  const zone = new ZoneTime(options.timezone ?? 'America/New_York');
  const startAt = options.startAt ?? realNow();
  const simClock = createSimClock({ startAt, speed: options.speed ?? 1, realNow });
  const plan = planFleet(net, seed, options.buses);
  const fleet = buildFleet(net, seed, plan);
  const world = new World({ net, seed, plan, fleet, zone, startAt });
  const keys = options.keys ?? demoKeys(options.rateLimit ?? 300);
  const admin = options.admin ?? false;
  let faults = noFaults();
  const stats = new RequestStats(realNow);
  const ctx: PartnerContext = {
    world,
    simNow: simClock.now,
    keys: new Map(keys.map((k) => [k.key, k])),
    limiter: new RateLimiter(options.rateWindowMs ?? 60_000, realNow),
    resetAt: options.resetAt ?? 'epoch-s',
    faults: () => faults,
    random: seededStream(seed ^ 0xfa017),
    stopIdBase: routeStopIdBase(net.routes),
  };
  const hanging = new Set<ServerResponse>();

  const truth = (): Truth => {
    const at = simClock.now();
    return {
      at,
      buses: fleet.buses.map((b) => {
        const s = world.busState(b, at);
        return { id: b.id, lat: s.lat, lon: s.lon, speedKmh: s.speedKmh, heading: s.heading, onTrip: s.onTrip, alongM: s.onTrip ? (s.alongM ?? null) : null, gps: world.gpsState(b, at) };
      }),
      trips: world.activeTrips(at).map((ref) => ({ id: world.tripId(ref), busId: world.tripBus(ref, at)?.id ?? null, delayMinutes: world.tripStatus(ref, at).delayMinutes })),
      incidents: world.incidents.list().map((i) => ({ ...i, active: i.startAt <= at && at < i.endAt })),
    };
  };

  /** A bus on a trip now that no incident holds (lowest id; for a silent GPS, one that reports). */
  const pickBus = (at: number, needsGps: boolean): number | null => {
    const busy = new Set(world.incidents.list().filter((i) => at < i.endAt).map((i) => i.busId));
    const ids = world
      .activeTrips(at)
      .map((ref) => ref.s.busId[ref.k]!)
      .filter((id) => !busy.has(id) && (!needsGps || world.gpsState(world.bus(id)!, at) === 'ok'))
      .sort((a, b) => a - b);
    return ids[0] ?? null;
  };

  const addIncident = (raw: unknown): Incident => {
    const request = incidentRequestSchema.parse(raw);
    const at = simClock.now();
    const endAt = at + request.durationS * 1000;
    if (request.kind === 'no-bus') {
      const busy = new Set(world.incidents.list().filter((i) => at < i.endAt).map((i) => i.tripId));
      const ref = request.tripId !== undefined ? world.tripById(request.tripId, at) : (world.activeTrips(at).find((r) => !busy.has(world.tripId(r))) ?? null);
      if (!ref) throw new IncidentError(request.tripId !== undefined ? `No trip ${request.tripId}` : 'No active trip to take the bus from');
      return world.incidents.add({ kind: 'no-bus', busId: ref.s.busId[ref.k]!, tripId: world.tripId(ref), distanceM: null, startAt: at, endAt });
    }
    const busId = request.busId ?? pickBus(at, request.kind === 'gps-silent');
    if (busId === null) throw new IncidentError('No bus on a trip to give the incident to');
    if (!world.bus(busId)) throw new IncidentError(`No bus ${busId}`);
    const trip = world.tripOfBus(busId, at);
    return world.incidents.add({
      kind: request.kind,
      busId,
      tripId: trip ? world.tripId(trip) : null,
      distanceM: request.kind === 'off-route' ? request.distanceM : null,
      startAt: at,
      endAt,
    });
  };

  const clock = (): SimClockInfo => {
    const t = simClock.now();
    return { simTime: t, local: zone.format(t), serviceDate: formatDay(world.serviceDayOf(t)), timezone: zone.timeZone, speed: simClock.speed, realTime: realNow() };
  };

  function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body), ...headers });
    res.end(body);
  }

  function deliver(res: ServerResponse, answer: PartnerAnswer) {
    if (answer.kind === 'hang') {
      stats.record(answer.op, answer.key, 'hang');
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    stats.record(answer.op, answer.key, answer.status);
    const write = () => {
      if (!res.destroyed) send(res, answer.status, answer.body, answer.headers);
    };
    if (faults.latencyMs > 0) setTimeout(write, faults.latencyMs);
    else write();
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_ADMIN_BODY) throw new Error('body too large');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string) {
    const reply = (status: number, body: unknown) => send(res, status, JSON.stringify(body));
    const route = `${req.method} ${path}`;
    switch (route) {
      case 'GET /truth':
        return reply(200, truth());
      case 'GET /faults':
        return reply(200, faults);
      case 'POST /faults/reset':
        faults = noFaults();
        return reply(200, faults);
      case 'GET /stats':
        return reply(200, stats.snapshot());
      case 'POST /stats/reset':
        stats.reset();
        return reply(200, stats.snapshot());
      case 'GET /clock':
        return reply(200, clock());
      case 'GET /incidents':
        return reply(200, world.incidents.list());
      case 'POST /incidents/reset':
        world.incidents.endAll(simClock.now());
        return reply(200, world.incidents.list());
      case 'POST /incidents': {
        let body: unknown;
        try {
          body = JSON.parse((await readBody(req)) || '{}');
        } catch (e) {
          return reply(400, { error: `Body must be a JSON incident (${(e as Error).message})` });
        }
        const parsed = incidentRequestSchema.safeParse(body);
        if (!parsed.success) return reply(400, { error: parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ') });
        try {
          return reply(201, addIncident(parsed.data));
        } catch (e) {
          if (e instanceof IncidentError) return reply(409, { error: e.message });
          throw e;
        }
      }
      case 'POST /faults': {
        let patch: unknown;
        try {
          patch = JSON.parse((await readBody(req)) || '{}');
        } catch (e) {
          return reply(400, { error: `Body must be a JSON object of faults (${(e as Error).message})` });
        }
        const parsed = faultsPatchSchema.safeParse(patch);
        if (!parsed.success) return reply(400, { error: parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ') });
        faults = mergeFaults(faults, parsed.data);
        return reply(200, faults);
      }
    }
    const end = /^\/incidents\/(\d+)\/end$/.exec(path);
    if (end && req.method === 'POST') {
      const ended = world.incidents.end(Number(end[1]), simClock.now());
      return ended ? reply(200, ended) : reply(404, { error: `No incident ${end[1]}` });
    }
    const known = ['/truth', '/incidents', '/incidents/reset', '/faults', '/faults/reset', '/stats', '/stats/reset', '/clock'].includes(path);
    return reply(known ? 405 : 404, { error: known ? `Method ${req.method} not allowed on ${ADMIN_PREFIX}${path}` : `No admin endpoint ${ADMIN_PREFIX}${path}` });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    const path = url.pathname;
    if (admin && (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`))) {
      handleAdmin(req, res, path.slice(ADMIN_PREFIX.length)).catch((e: unknown) => {
        if (!res.headersSent) send(res, 500, JSON.stringify({ error: (e as Error).message }));
      });
      return;
    }
    const inBase = path.startsWith(`${BASE_PATH}/`);
    const answer = handlePartner(ctx, {
      method: req.method ?? 'GET',
      path: inBase ? path.slice(BASE_PATH.length) : path,
      outsideBase: !inBase,
      query: url.searchParams,
      authorization: req.headers.authorization,
    });
    deliver(res, answer);
  });
  server.keepAliveTimeout = 5_000;

  let listening = false;
  return {
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          listening = true;
          const actual = (server.address() as AddressInfo).port;
          const h = host.includes(':') ? `[${host}]` : host;
          resolve({ baseUrl: `http://${h}:${actual}${BASE_PATH}`, port: actual });
        });
      });
    },
    close() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      if (!listening) return Promise.resolve();
      listening = false;
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    unref() {
      server.unref();
    },
    truth,
    faults: () => faults,
    setFaults(patch) {
      faults = mergeFaults(faults, faultsPatchSchema.parse(patch));
      return faults;
    },
    resetFaults() {
      faults = noFaults();
      return faults;
    },
    addIncident,
    endIncident: (id) => world.incidents.end(id, simClock.now()),
    endIncidents: () => world.incidents.endAll(simClock.now()),
    incidents: () => world.incidents.list(),
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    clock,
    now: simClock.now,
    keys,
    plan,
    world,
    admin,
  };
}


/** An incident that cannot be made now (no such bus or trip, nothing on a trip): 409 on the admin path. */
class IncidentError extends Error {}
