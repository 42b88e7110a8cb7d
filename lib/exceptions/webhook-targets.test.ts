import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '@/lib/testing/store';
import type { ExceptionFeed } from './service';
import { DEFAULT_THRESHOLDS, parseAdminWebhookTarget, storedTargetName, targetOfStored, type WebhookTarget } from './config';
import { ExceptionEngine } from './engine';
import { SEVERITY, type Condition } from './rules';
import { ExceptionService } from './service';
import { ExceptionStore } from './store';
import { sendTestDelivery, verifySignature } from './webhooks';

// The admin page's webhook targets: the same checks as ALERT_WEBHOOKS', kept in the store (secret whole for the
// deliverer, masked for the API, removal audited), and the test delivery against a real receiver on 127.0.0.1.

const SECRET = 'admin-target-secret-0123';

describe('a webhook target from the admin page', () => {
  it('takes an https URL, or http on loopback, a 16-character secret, known rules and a severity', () => {
    expect(parseAdminWebhookTarget({ url: 'https://ops.example.org/hook?k=1', secret: SECRET, rules: ['late', 'ghost'], minSeverity: 'warning' })).toEqual({
      ok: true,
      target: { url: 'https://ops.example.org/hook?k=1', secret: SECRET, rules: ['late', 'ghost'], minSeverity: 'warning' },
    });
    // No rules (absent, null or none ticked) is every rule; no severity is every severity.
    for (const rest of [{}, { rules: null, minSeverity: null }, { rules: [] }]) {
      expect(parseAdminWebhookTarget({ url: 'http://127.0.0.1:9000/x', secret: SECRET, ...rest })).toEqual({ ok: true, target: { url: 'http://127.0.0.1:9000/x', secret: SECRET, rules: null, minSeverity: null } });
    }
    expect(parseAdminWebhookTarget({ url: 'http://[::1]:9000/x', secret: SECRET }).ok).toBe(true);
  });

  it('refuses with one sentence what ALERT_WEBHOOKS would refuse', () => {
    const problem = (raw: unknown) => {
      const r = parseAdminWebhookTarget(raw);
      return r.ok ? null : r.problem;
    };
    expect(problem({ url: 'http://ops.example.org/hook', secret: SECRET })).toBe('The webhook target http://ops.example.org/hook: the url must be https; plain http is allowed only on loopback.');
    expect(problem({ url: 'ftp://ops.example.org/hook', secret: SECRET })).toBe('The webhook target ftp://ops.example.org/hook: the url must be https (http only on loopback), not ftp.');
    expect(problem({ url: 'not a url', secret: SECRET })).toBe('The webhook target number 1: the url is not a URL.');
    expect(problem({ url: 'https://ops.example.org/hook', secret: 'short' })).toBe('The webhook target https://ops.example.org/hook: the secret must be at least 16 characters.');
    expect(problem({ url: 'https://ops.example.org/hook', secret: SECRET, rules: ['lateish'] })).toMatch(/^The webhook target https:\/\/ops\.example\.org\/hook: rules\.0 /);
    expect(problem({ url: 'https://ops.example.org/hook', secret: SECRET, minSeverity: 'loud' })).toMatch(/^The webhook target https:\/\/ops\.example\.org\/hook: minSeverity /);
    expect(problem({ url: 'https://ops.example.org/hook', secret: SECRET, extra: 1 })).toMatch(/^The webhook target https:\/\/ops\.example\.org\/hook: /);
    expect(problem([])).toMatch(/^The body must be JSON/);
    // The secret is never in a sentence.
    expect(problem({ url: 'http://ops.example.org/hook', secret: SECRET })).not.toContain(SECRET);
  });

  it('is delivered to under its own name, every rule and severity when it names none', () => {
    expect(targetOfStored({ id: 7, url: 'https://a.example/h', secret: SECRET, rules: null, minSeverity: null })).toEqual({ name: storedTargetName(7), url: 'https://a.example/h', secret: SECRET, rules: [], minSeverity: 'info' });
  });
});

describeEachStore('webhook targets in the store', (target_) => {
  let store: ExceptionStore;
  beforeEach(async () => {
    store = new ExceptionStore((await target_.open()).db);
  });

  it('keeps the secret for the deliverer, lists it masked, audits adding and removing', async () => {
    const a = await store.addWebhookTarget({ url: 'https://ops.example.org/hook?token=x', secret: SECRET, rules: ['late'], minSeverity: 'warning' }, 'root', '10.0.0.1', 1_000);
    const b = await store.addWebhookTarget({ url: 'http://127.0.0.1:9000/x', secret: `${SECRET}-b`, rules: null, minSeverity: null }, 'root', null, 2_000);
    expect(a).toEqual({ id: a.id, url: 'https://ops.example.org/hook?token=x', secretMasked: '••••0123', rules: ['late'], minSeverity: 'warning', createdBy: 'root', createdAt: 1_000, removedAt: null });
    expect(JSON.stringify(await store.webhookTargetList())).not.toContain(SECRET);
    expect((await store.webhookTargetList()).map((t) => t.id)).toEqual([b.id, a.id]);
    expect(await store.activeWebhookTargets()).toEqual([
      { id: a.id, url: a.url, secret: SECRET, rules: ['late'], minSeverity: 'warning' },
      { id: b.id, url: b.url, secret: `${SECRET}-b`, rules: null, minSeverity: null },
    ]);

    expect(await store.removeWebhookTarget(a.id, 'root', '10.0.0.1', 3_000)).toMatchObject({ id: a.id, removedAt: 3_000 });
    expect(await store.removeWebhookTarget(a.id, 'root', '10.0.0.1', 4_000)).toBeNull();
    expect(await store.removeWebhookTarget(9_999, 'root', null, 4_000)).toBeNull();
    expect((await store.activeWebhookTargets()).map((t) => t.id)).toEqual([b.id]);
    expect(await store.webhookTarget(a.id)).toBeNull();
    expect(await store.webhookTarget(b.id)).toMatchObject({ secret: `${SECRET}-b` });
    expect((await store.webhookTargetList()).find((t) => t.id === a.id)?.removedAt).toBe(3_000);

    const audit = (await store.db.execute(sql`SELECT event, actor, subject, address FROM auth_audit ORDER BY id`)) as unknown as { rows?: unknown[] } | unknown[];
    const rows = Array.isArray(audit) ? audit : (audit.rows ?? []);
    expect(rows).toEqual([
      { event: 'webhook.added', actor: 'root', subject: 'https://ops.example.org/hook', address: '10.0.0.1' },
      { event: 'webhook.added', actor: 'root', subject: 'http://127.0.0.1:9000/x', address: null },
      { event: 'webhook.removed', actor: 'root', subject: 'https://ops.example.org/hook', address: '10.0.0.1' },
    ]);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });
});

const stopped: Condition = { rule: 'stopped', key: 'stopped|bus:7', severity: SEVERITY.stopped, subject: { busId: 7, tripId: 44, routeId: 3, routeCode: 'M15', busName: '#7' }, figures: { stoppedMin: 6 }, message: '#7 has not moved for 6 min.' };

/** A feed that never leads: the service only serves the store (as a follower instance of a cluster does). */
const follower: ExceptionFeed = {
  events: { on: () => () => {} } as unknown as ExceptionFeed['events'],
  leading: false,
  liveSnapshot: () => {
    throw new Error('not read by a follower');
  },
  networkGeoJson: () => {
    throw new Error('not read by a follower');
  },
};

describeEachStore('the exception service with stored targets', (target_) => {
  const FROM_ENV: WebhookTarget = { name: 'env', url: 'https://env.example.org/h', secret: SECRET, rules: [], minSeverity: 'info' };

  it("delivers to ALERT_WEBHOOKS' targets and the store's; another instance sees a change when it reads them again", async () => {
    const db = (await target_.open()).db;
    const service = (now: number) => new ExceptionService({ feed: follower, db: async () => db, config: { thresholds: DEFAULT_THRESHOLDS, webhooks: [FROM_ENV] }, ghostAfterS: 300, recorder: () => null, now: () => now, log: () => {} });
    const a = service(10_000);
    const b = service(20_000);
    try {
      await b.rereadTargets();
      const added = await a.addWebhookTarget({ url: 'https://ops.example.org/hook', secret: SECRET, rules: ['stopped'], minSeverity: 'critical' }, 'root', null);
      expect(a.targets().map((t) => t.name)).toEqual(['env', storedTargetName(added.id)]);
      // b read before the change: it learns it at its next read (every minute, or at once for a change of its own).
      expect(b.targets().map((t) => t.name)).toEqual(['env']);
      await b.rereadTargets();
      expect(b.targets().map((t) => t.name)).toEqual(['env', storedTargetName(added.id)]);

      // An acknowledgement on b queues one delivery for each target that wants the exception.
      const engine = new ExceptionEngine(DEFAULT_THRESHOLDS);
      engine.step(0, [stopped], false);
      const opened = engine.step(60_000, [stopped], false)[0]!;
      const store = await b.exceptionStore();
      await store.record([opened]);
      await b.acknowledge(opened.exception.id, 'ada', null, null);
      expect((await store.due(30_000, 50)).map((d) => d.target).sort()).toEqual([storedTargetName(added.id), 'env'].sort());

      await b.removeWebhookTarget(added.id, 'root', null);
      expect(b.targets().map((t) => t.name)).toEqual(['env']);
      await a.rereadTargets();
      expect(a.targets().map((t) => t.name)).toEqual(['env']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the test delivery', () => {
  let server: ReturnType<typeof createServer>;
  let url = '';
  const got: { signature: string; delivery: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        got.push({ signature: String(req.headers['x-fleetmap-signature']), delivery: String(req.headers['x-fleetmap-delivery']), body });
        res.writeHead(req.url === '/refuse' ? 410 : 200).end('x'.repeat(500));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('is signed with the secret and answers with the status and at most 200 characters of the body', async () => {
    const now = Date.now();
    const r = await sendTestDelivery(targetOfStored({ id: 1, url: `${url}/hook`, secret: SECRET, rules: null, minSeverity: null }), now);
    expect(r).toEqual({ delivery: expect.stringMatching(/^dl_test_/), status: 200, ok: true, body: 'x'.repeat(200), error: null });
    expect(got).toHaveLength(1);
    expect(verifySignature(got[0]!.signature, got[0]!.body, SECRET, Math.floor(now / 1000))).toBe(true);
    expect(got[0]!.delivery).toBe(r.delivery);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ version: 1, type: 'webhook.test', id: r.delivery });

    expect(await sendTestDelivery(targetOfStored({ id: 1, url: `${url}/refuse`, secret: SECRET, rules: null, minSeverity: null }), now)).toMatchObject({ status: 410, ok: false });
  });

  it('says why when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await sendTestDelivery(targetOfStored({ id: 2, url: `http://127.0.0.1:${port}/`, secret: SECRET, rules: null, minSeverity: null }), Date.now());
    expect(r).toMatchObject({ status: null, ok: false, body: '' });
    expect(r.error).toMatch(/ECONNREFUSED/);
  });
});
