import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_PATH, handlePartner, type PartnerAnswer, type PartnerContext } from './api';
import { ZoneTime, createSimClock, formatDay } from './clock';
import { defaultNetwork } from './default-network';
import { faultsPatchSchema, mergeFaults, noFaults, type Faults, type FaultsPatch } from './faults';
import { buildFleet } from './fleet';
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
export { simOptionsFromEnv, simRunnerFromEnv, type SimulatorOptions } from './options';
export { zoneAtLocalHour } from './clock';

export interface TruthBus {
  id: number;
  lat: number;
  lon: number;
  speedKmh: number;
  heading: number;
  onTrip: boolean;
  gps: GpsState;
}

export interface Truth {
  /** Sim time of these positions, epoch ms. */
  at: number;
  buses: TruthBus[];
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
        return { id: b.id, lat: s.lat, lon: s.lon, speedKmh: s.speedKmh, heading: s.heading, onTrip: s.onTrip, gps: world.gpsState(b, at) };
      }),
    };
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
    const known = ['/truth', '/faults', '/faults/reset', '/stats', '/stats/reset', '/clock'].includes(path);
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

