import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExceptionHistoryResponse, FleetException, LiveExceptionsResponse } from '@/lib/model';
import { createSimulator, DEMO_BUSINESS_KEY, zoneAtLocalHour, type Simulator } from '@/lib/sim';
import { createTestDatabase } from '@/lib/testing/database';
import { startInstance, startRedisServer, viewOf, waitUntil, type Instance, type RedisServer } from '@/lib/testing/cluster';
import { REDIS_SKIP_MESSAGE } from '@/lib/testing/redis';
import { DELIVERY_HEADER } from './webhooks';

// Three instances on real Redis and PostgreSQL against the simulator, with one webhook target: a receiver in this
// test. A trip loses its bus (the simulator's no-bus incident): the leader opens a ghost exception and delivers it.
// Then the leader is killed (kill -9), the incident ends, and the next leader must take the open exception up from
// the store and resolve it: one exception (one id) for the trip in the store and on the receiver, its opened and
// resolved deliveries both received, and never two delivery ids for one transition. A delivery may come twice with
// the same id (at least once: the killed leader may have sent one it had not yet marked).
//
// Waits are on events with generous deadlines: a loaded two-core machine starts an instance in tens of seconds.

const RUN = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL);
const SKIP = !process.env.TEST_REDIS_URL ? REDIS_SKIP_MESSAGE : 'skipped: TEST_DATABASE_URL unset';
const LEASE_TTL_S = 5;

interface Received {
  delivery: string;
  type: string;
  exception: FleetException;
  sequence: number;
}

/** A webhook receiver that answers 200 to everything and keeps what it got. */
async function receiver(): Promise<{ url: string; got: Received[]; close: () => Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const payload = JSON.parse(body) as { type: string; exception: FleetException; sequence: number };
      got.push({ delivery: String(req.headers[DELIVERY_HEADER.toLowerCase()]), type: payload.type, exception: payload.exception, sequence: payload.sequence });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const getJson = async <T,>(url: string): Promise<T | undefined> => {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return r.ok ? ((await r.json()) as T) : undefined;
  } catch {
    return undefined;
  }
};

describe.skipIf(!RUN)(`exceptions across a failover of three instances (${RUN ? 'real services' : SKIP})`, () => {
  let sim: Simulator | null = null;
  let redis: RedisServer | null = null;
  let db: { url: string; drop: () => Promise<void> } | null = null;
  let hook: Awaited<ReturnType<typeof receiver>> | null = null;
  const instances: Instance[] = [];

  afterAll(async () => {
    await Promise.allSettled(instances.map((i) => i.stop()));
    await redis?.stop();
    await sim?.close();
    await hook?.close();
    await db?.drop();
  });

  it('keeps one exception and every delivery, none sent under two ids, when the leader is killed mid-incident', async () => {
    db = await createTestDatabase();
    redis = await startRedisServer();
    hook = await receiver();
    // Midday in the simulator whatever the real hour: trips on the road.
    sim = createSimulator({ seed: 17, buses: 80, speed: 1, admin: true, timezone: zoneAtLocalHour(12) });
    const { baseUrl } = await sim.listen(0, '127.0.0.1');
    const env = {
      REDIS_URL: redis.url,
      FLEETMAP_CLUSTER: `exc-${Date.now().toString(36)}`,
      FLEETMAP_LEASE_TTL_S: String(LEASE_TTL_S),
      DATABASE_URL: db.url,
      PARTNER_API_BASE_URL: baseUrl,
      PARTNER_API_KEY: DEMO_BUSINESS_KEY,
      ALERT_HOLD_S: '5',
      ALERT_WEBHOOKS: JSON.stringify([{ name: 'ops', url: hook.url, secret: 'a-test-secret-of-32-characters!!', rules: ['ghost'] }]),
    };
    instances.push(...(await Promise.all([startInstance(env), startInstance(env), startInstance(env)])));

    const roles = async () => Promise.all(instances.map(async (i) => ({ i, view: await viewOf(i.url) })));
    const leader = async (among: readonly Instance[]) => (await roles()).find((r) => among.includes(r.i) && r.view?.role === 'leader' && r.view.vehicles > 0)?.i;
    const leader1 = await waitUntil('a leader serving buses', () => leader(instances), 240_000, 500).catch(async (e: unknown) => {
      // What each instance served and said, to tell a slow start from a broken one.
      const seen = await roles();
      throw new Error(`${String(e)}\n${seen.map((r) => `${r.i.pid}: ${JSON.stringify(r.view)}\n${r.i.proc.output().slice(-2000)}`).join('\n')}`);
    });

    // A trip with at least 40 minutes to run loses its bus.
    const now = sim.now();
    const ref = sim.world.activeTrips(now).find((r) => r.s.baseMs + r.s.arrS[r.k]! * 1000 - now > 40 * 60_000);
    expect(ref, 'a trip with 40 minutes to run').toBeDefined();
    const tripId = sim.world.tripId(ref!);
    sim.addIncident({ kind: 'no-bus', tripId, durationS: 3600 });
    const ofTrip = (r: Received) => r.exception.rule === 'ghost' && r.exception.subject.tripId === tripId;
    const opened = await waitUntil('the ghost exception delivered', () => hook!.got.find((r) => ofTrip(r) && r.type === 'exception.opened'), 180_000, 200);

    // Every instance reads it from the store (a follower's live list is the store's).
    const followers = instances.filter((i) => i !== leader1);
    for (const f of followers) {
      await waitUntil('a follower lists the exception', async () => (await getJson<LiveExceptionsResponse>(`${f.url}/api/exceptions`))?.exceptions.find((e) => e.id === opened.exception.id), 60_000, 500);
    }

    // kill -9 the leader while the exception is open; another takes the lead.
    process.kill(leader1.pid, 'SIGKILL');
    const leader2 = await waitUntil('a new leader after kill -9', () => leader(followers), 120_000, 200);
    expect(leader2).not.toBe(leader1);

    // The incident ends: the new leader resolves the same exception and delivers that.
    sim.endIncidents();
    const resolved = await waitUntil('the resolution delivered', () => hook!.got.find((r) => ofTrip(r) && r.type === 'exception.resolved'), 180_000, 200);
    expect(resolved.exception.id).toBe(opened.exception.id);
    expect(resolved.sequence).toBeGreaterThan(opened.sequence);

    // One exception for the trip, in the store and on the receiver.
    const history = await waitUntil('the history', () => getJson<ExceptionHistoryResponse>(`${leader2.url}/api/exceptions?from=${now - 3_600_000}&to=${sim!.now() + 60_000}`), 30_000, 500);
    const stored = history.exceptions.filter((e) => e.rule === 'ghost' && e.subject.tripId === tripId);
    expect(stored.map((e) => [e.id, e.state])).toEqual([[opened.exception.id, 'resolved']]);
    expect(new Set(hook.got.filter(ofTrip).map((r) => r.exception.id))).toEqual(new Set([opened.exception.id]));

    // No transition delivered under two ids, and no delivery id carrying two transitions: nothing sent twice as new.
    const idsByTransition = new Map<string, Set<string>>();
    const transitionById = new Map<string, string>();
    for (const r of hook.got) {
      const transition = `${r.exception.id} ${r.type} ${r.sequence}`;
      (idsByTransition.get(transition) ?? idsByTransition.set(transition, new Set()).get(transition)!).add(r.delivery);
      expect(transitionById.get(r.delivery) ?? transition, `delivery ${r.delivery}`).toBe(transition);
      transitionById.set(r.delivery, transition);
    }
    for (const [transition, ids] of idsByTransition) expect(ids.size, `${transition} delivered under ${[...ids].join(', ')}`).toBe(1);
  }, 900_000);
});
