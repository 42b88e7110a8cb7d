import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { FleetException, WebhookPayload } from '@/lib/model';
import { describeEachStore } from '@/lib/testing/store';
import type { WebhookTarget } from './config';
import { ExceptionEngine, type Transition } from './engine';
import { SEVERITY, type Condition } from './rules';
import { DEFAULT_THRESHOLDS } from './config';
import { ExceptionStore } from './store';
import { DELIVERY_HEADER, Deliverer, SIGNATURE_HEADER, deliveriesFor, verifySignature, type RetryPolicy } from './webhooks';

// Webhooks against a real HTTP receiver on 127.0.0.1, with the queue in a real store (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set). Each test waits on what the receiver got, never on a wall-clock deadline; retries run
// on a fast policy so that a try follows the one before within milliseconds.

const SECRET = 'receiver-secret-0123456789';
const FAST: RetryPolicy = { baseMs: 20, capMs: 100, maxAgeMs: 24 * 3_600_000, timeoutMs: 5_000 };

interface Received {
  delivery: string;
  signature: string;
  body: string;
}

type Behaviour = (req: IncomingMessage, res: ServerResponse, n: number) => void;

let server: ReturnType<typeof createServer>;
let url = '';
let received: Received[] = [];
let behaviour: Behaviour = (_req, res) => res.writeHead(200).end();
const waiters: (() => void)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ delivery: String(req.headers[DELIVERY_HEADER.toLowerCase()]), signature: String(req.headers[SIGNATURE_HEADER.toLowerCase()]), body });
      behaviour(req, res, received.length);
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Resolves once the receiver has had `n` requests. */
async function receivedCount(n: number): Promise<void> {
  while (received.length < n) await new Promise<void>((r) => waiters.push(r));
}

const target = (over: Partial<WebhookTarget> = {}): WebhookTarget => ({ name: 'ops', url, secret: SECRET, rules: [], minSeverity: 'info', ...over });

const stopped: Condition = { rule: 'stopped', key: 'stopped|bus:7', severity: SEVERITY.stopped, subject: { busId: 7, tripId: 44, routeId: 3, routeCode: 'M15', busName: '#7' }, figures: { stoppedMin: 6 }, message: '#7 has not moved for 6 min.' };
// An hour ago: every delivery made below is due now, and far from a day old.
const T0 = Date.now() - 3_600_000;

/** An engine that opened one stopped exception at T0 + 60 s. */
function opened(): { engine: ExceptionEngine; t: Transition } {
  const engine = new ExceptionEngine(DEFAULT_THRESHOLDS);
  engine.step(T0, [stopped], false);
  return { engine, t: engine.step(T0 + 60_000, [stopped], false)[0]! };
}

describeEachStore('webhooks', (target_) => {
  let store: ExceptionStore;
  const deliverers: Deliverer[] = [];
  const deliverer = (targets: WebhookTarget[], retry = FAST) => {
    const d = new Deliverer({ store, targets: () => targets, retry, log: () => {} });
    deliverers.push(d);
    return d;
  };
  /** Runs the queue until nothing is pending. */
  async function drain(d: Deliverer) {
    for (;;) {
      await d.runOnce();
      const states = await store.deliveryStates();
      if (!states.pending) return states;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // An empty store for every test (the same database, emptied).
  beforeEach(async () => {
    store = new ExceptionStore((await target_.open()).db);
  });
  afterAll(async () => {
    for (const d of deliverers) await d.close();
  });

  it('records an exception and its transitions, and sends each signed, with its delivery id and sequence', async () => {
    received = [];
    behaviour = (_req, res) => res.writeHead(204).end();
    const { engine, t } = opened();
    const fresh = await store.record([t]);
    expect(fresh).toHaveLength(1);
    // Written again (a new leader after a failover): nothing new.
    expect(await store.record([t])).toEqual([]);
    await store.enqueue(fresh.flatMap((x) => deliveriesFor(x, [target(), target({ name: 'pager', rules: ['ghost'] })])));
    const ack = (await store.acknowledge(t.exception.id, 'dana', 'on it', T0 + 90_000, '127.0.0.1'))!;
    expect(await store.acknowledge(t.exception.id, 'lee', null, T0 + 95_000, null)).toBeNull();
    await store.enqueue(deliveriesFor(ack, [target()]));
    const resolved = engine.step(T0 + 200_000, [], false);
    const storedResolution = await store.record(engine.step(T0 + 300_000, [], false).concat(resolved));
    await store.enqueue(storedResolution.flatMap((x) => deliveriesFor(x, [target()])));
    expect(await drain(deliverer([target()]))).toEqual({ delivered: 3 });

    // Sent at once, they arrive in any order (the design keeps none): `sequence` orders them.
    const bodies = received.map((r) => JSON.parse(r.body) as WebhookPayload).sort((a, b) => a.sequence - b.sequence);
    expect(bodies.map((b) => [b.type, b.sequence, b.exception.state])).toEqual([
      ['exception.opened', 1, 'open'],
      ['exception.acknowledged', 2, 'acknowledged'],
      ['exception.resolved', 3, 'resolved'],
    ]);
    expect(bodies[2]!.exception).toMatchObject({ acknowledgedBy: 'dana', note: 'on it' });
    for (const r of received) {
      expect(verifySignature(r.signature, r.body, SECRET, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verifySignature(r.signature, r.body, 'another-secret-0123456789', Math.floor(Date.now() / 1000))).toBe(false);
      expect(verifySignature(r.signature, `${r.body} `, SECRET, Math.floor(Date.now() / 1000))).toBe(false);
      // An old request replayed later is refused.
      expect(verifySignature(r.signature, r.body, SECRET, Math.floor(Date.now() / 1000) + 3600)).toBe(false);
      expect(JSON.parse(r.body).id).toBe(r.delivery);
    }
    expect(new Set(received.map((r) => r.delivery)).size).toBe(3);
    const stored = (await store.byId(t.exception.id))!;
    expect(stored).toMatchObject({ state: 'resolved', seq: 3, acknowledgedBy: 'dana' });
  });

  it('tries again after three 500s and delivers on the fourth try, once, under one id', async () => {
    received = [];
    behaviour = (_req, res, n) => res.writeHead(n <= 3 ? 500 : 200).end(n <= 3 ? 'x'.repeat(1000) : 'ok');
    const { t } = opened();
    const [fresh] = await store.record([t]);
    await store.enqueue(deliveriesFor(fresh!, [target()]));
    const logs: Record<string, unknown>[] = [];
    const d = new Deliverer({ store, targets: () => [target()], retry: FAST, log: (l) => logs.push(l) });
    deliverers.push(d);
    expect(await drain(d)).toEqual({ delivered: 1 });
    expect(received).toHaveLength(4);
    expect(new Set(received.map((r) => r.delivery)).size).toBe(1);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    // The receiver's answer is kept to 200 characters.
    expect(logs.filter((l) => l.msg === 'webhook delivery failed')).toHaveLength(3);
    for (const l of logs) expect(String(l.error).length).toBeLessThanOrEqual(200 + 'HTTP 500: '.length);
  });

  it('times out a receiver that hangs, and delivers when it answers again', async () => {
    received = [];
    const hung: ServerResponse[] = [];
    behaviour = (_req, res, n) => (n === 1 ? hung.push(res) : res.writeHead(200).end());
    const { t } = opened();
    const [fresh] = await store.record([t]);
    await store.enqueue(deliveriesFor(fresh!, [target()]));
    const d = deliverer([target()], { ...FAST, timeoutMs: 300 });
    expect(await drain(d)).toEqual({ delivered: 1 });
    expect(received).toHaveLength(2);
    for (const res of hung) res.destroy();
  });

  it('keeps a delivery through a restart mid-retry: another deliverer on the same store sends it, same id', async () => {
    received = [];
    let failing = true;
    behaviour = (_req, res) => res.writeHead(failing ? 503 : 200).end();
    const { t } = opened();
    const [fresh] = await store.record([t]);
    await store.enqueue(deliveriesFor(fresh!, [target()]));
    const before = deliverer([target()]);
    await before.runOnce();
    await receivedCount(1);
    await before.close();
    expect(await store.deliveryStates()).toEqual({ pending: 1 });
    failing = false;
    const after = deliverer([target()]);
    expect(await drain(after)).toEqual({ delivered: 1 });
    expect(received.map((r) => r.delivery)).toEqual([received[0]!.delivery, received[0]!.delivery]);
  });

  it('gives up after a day of retries, and at once on a refusal; /status reads the dead ones', async () => {
    received = [];
    behaviour = (_req, res, n) => res.writeHead(n === 1 ? 500 : 410).end();
    const { t } = opened();
    const [fresh] = await store.record([t]);
    await store.enqueue(deliveriesFor(fresh!, [target(), target({ name: 'gone' })]));
    // The next try would come after the day is over.
    const d = deliverer([target(), target({ name: 'gone' })], { ...FAST, maxAgeMs: 1 });
    const states = await drain(d);
    expect(states).toEqual({ dead: 2 });
    const dead = await store.deadDeliveries(10);
    expect(dead.map((x) => x.target).sort()).toEqual(['gone', 'ops']);
    expect(dead.every((x) => x.exceptionId === t.exception.id && x.attempts === 1)).toBe(true);
  });

  it('sends a target only the rules and severities it asks for', () => {
    const { t } = opened();
    const names = (targets: WebhookTarget[]) => deliveriesFor(t, targets).map((x) => x.target);
    expect(names([target({ name: 'a', rules: ['stopped'] }), target({ name: 'b', rules: ['late'] }), target({ name: 'c', minSeverity: 'critical' })])).toEqual(['a', 'c']);
    const late: FleetException = { ...t.exception, rule: 'late', severity: 'warning' };
    expect(deliveriesFor({ ...t, exception: late }, [target({ name: 'c', minSeverity: 'critical' })])).toEqual([]);
    expect(deliveriesFor({ ...t, type: 'snoozed' }, [target()])).toEqual([]);
  });
});
