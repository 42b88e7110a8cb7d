// A webhook target managed in the admin page: an admin adds one pointing at a receiver on 127.0.0.1 (plain http is
// allowed on loopback), sends it a test, the receiver gets one delivery whose X-Fleetmap-Signature verifies with
// the secret (HMAC-SHA256 of "t.body"), and the admin removes it. The secret is never shown again, only masked.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authTest, expect, signIn, type Account } from './support/auth';

const admin: Account = { name: 'root', role: 'admin', password: 'root-password-123' };
const test = authTest({ mode: 'local', accounts: [admin] });
// The refused target below is a 400 the browser logs; nothing else may be.
test.use({ allowedConsoleErrors: [/status of 400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/api\/admin\/webhooks\)$/] });
test.describe.configure({ timeout: 300_000 });

const SECRET = 'e2e-receiver-secret-0123456789';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

test('add a webhook target, send it a signed test, remove it', async ({ page }) => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('receiver says hello');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    await signIn(page, admin.name, admin.password, '/admin');
    await expect(page).toHaveURL(/\/admin$/);
    const section = page.getByRole('region', { name: 'Webhook targets' });

    // A plain-http target off loopback is refused with a sentence.
    await section.getByLabel('Target URL').fill('http://example.org/hook');
    await section.getByLabel('Secret').fill(SECRET);
    await section.getByRole('button', { name: 'Add webhook target' }).click();
    await expect(section.getByRole('alert')).toContainText('plain http is allowed only on loopback');

    await section.getByLabel('Target URL').fill(url);
    await section.getByLabel('Secret').fill(SECRET);
    await section.getByLabel('Least severity').selectOption('warning');
    await section.getByRole('checkbox', { name: 'late', exact: true }).check();
    await section.getByRole('button', { name: 'Add webhook target' }).click();
    const row = section.getByRole('row', { name: new RegExp(url.replace(/[.]/g, '\\.')) });
    await expect(row).toContainText('late');
    await expect(row).toContainText('warning');
    await expect(row).toContainText(`••••${SECRET.slice(-4)}`);
    // The list never carries the secret.
    const listed = await (await page.request.get('/api/admin/webhooks')).text();
    expect(listed).not.toContain(SECRET);

    await row.getByRole('button', { name: 'Send test' }).click();
    const status = section.getByRole('status', { name: 'Test delivery' });
    await expect(status).toContainText('HTTP 200');
    await expect(status).toContainText('receiver says hello');
    expect(received).toHaveLength(1);
    const got = received[0]!;
    const sig = Object.fromEntries(String(got.headers['x-fleetmap-signature']).split(',').map((p) => p.split('=') as [string, string]));
    expect(sig.v1).toBe(createHmac('sha256', SECRET).update(`${sig.t}.${got.body}`).digest('hex'));
    expect(Math.abs(Number(sig.t) - Date.now() / 1000)).toBeLessThan(300);
    const payload = JSON.parse(got.body) as { type: string; id: string };
    expect(payload.type).toBe('webhook.test');
    expect(got.headers['x-fleetmap-delivery']).toBe(payload.id);

    await row.getByRole('button', { name: 'Remove' }).click();
    await expect(row).toHaveCount(0);
    await expect(section.getByText('None added here.')).toBeVisible();

    const audit = (await (await page.request.get('/api/admin/audit')).json()) as { entries: Array<{ event: string; subject: string }> };
    const events = audit.entries.filter((e) => e.subject === url).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['webhook.added', 'webhook.removed']));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
