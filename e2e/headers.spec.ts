// Security headers on every page and API answer, MapLibre's worker running under the page's CSP (the map
// really draws, with no violation reported), and the server's log: one structured line per upstream error,
// with its correlation id, never the key and never an upstream body.
import { expect, test } from './support/fixtures';
import { renderedBusCount } from './support/map';

// This file switches faults on (or needs a clean start): a stack of its own, so no other file sees them.
test.use({ stackOptions: { ownStack: 'headers' } });

const PAGES = ['/', '/delays', '/fleet', '/status', '/wall'];
const MAP_PAGES = ['/', '/wall'];
const API = ['/api/live', '/api/status', '/api/routes', '/api/buses', '/api/network', '/api/routes/1/stops', '/api/trips/abc', '/api/integration', '/api/buses/last-trips', '/api/nothing-here'];

/** Directive name → value, from a CSP header. */
function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...value] = d.split(/\s+/);
        return [name!, value.join(' ')] as const;
      }),
  );
}

test('pages carry CSP (worker allowed, framing by self only), nosniff and a referrer policy; nothing says X-Powered-By', async ({ request, stack }) => {
  for (const path of PAGES) {
    const res = await request.get(`${stack.appUrl}${path}`);
    expect(res.status(), path).toBe(200);
    const h = res.headers();
    const csp = directives(h['content-security-policy'] ?? '');
    expect(csp.get('default-src'), `${path} default-src`).toBe("'self'");
    expect(csp.get('script-src'), `${path} script-src`).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'$/);
    expect(csp.get('worker-src'), `${path} worker-src`).toContain("'self'");
    expect(csp.get('frame-ancestors'), `${path} frame-ancestors`).toBe("'self'");
    expect(csp.get('object-src'), `${path} object-src`).toBe("'none'");
    // <style> elements by the nonce only; 'unsafe-inline' is left to style attributes (docs/resilience.md: Secrets and headers).
    expect(csp.get('style-src'), `${path} style-src`).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+'$/);
    expect(csp.get('style-src-attr'), `${path} style-src-attr`).toBe("'unsafe-inline'");
    expect(h['x-content-type-options'], path).toBe('nosniff');
    expect(h['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(h['x-powered-by'], path).toBeUndefined();
    // A fresh nonce per answer: a nonce that repeats protects nothing.
    const again = directives((await request.get(`${stack.appUrl}${path}`)).headers()['content-security-policy'] ?? '');
    expect(again.get('script-src')).not.toBe(csp.get('script-src'));
  }
  for (const path of API) {
    const res = await request.get(`${stack.appUrl}${path}`);
    expect(res.status(), path).toBeLessThan(500);
    expect(res.headers()['x-powered-by'], path).toBeUndefined();
    expect(res.headers()['x-content-type-options'], path).toBe('nosniff');
  }
});

for (const path of MAP_PAGES) {
  test(`the map on ${path} renders under the CSP with no violation`, async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(path);
    await expect.poll(() => renderedBusCount(page), { timeout: 60_000 }).toBeGreaterThan(0);
    // Buses can be on screen before MapLibre's worker exists (the overlay draws them until it has tiled the fleet:
    // first-paint.spec.ts), so the worker is waited for, and then the map's tiles, which only the worker lays out.
    const workers = () => page.workers().map((w) => new URL(w.url()).pathname);
    await expect.poll(() => workers().some((w) => w.endsWith('maplibre-gl-worker.mjs')), { timeout: 60_000, message: 'the map worker running' }).toBe(true);
    await expect.poll(() => page.evaluate(() => window.__fleetmap!.map.loaded()), { timeout: 60_000, message: 'the style and its tiles loaded' }).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
    // The fixture also fails the test on any console error, which is where Chromium reports a refused load.
  });
}

test('the log has one structured line per upstream error, with the correlation id, never the key or a body', async ({ stack }) => {
  const logged = () =>
    stack
      .appLogs()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'upstream error');
  // Data flowing: 'degraded' too, which lingers for a while after an earlier spec's fault on this shared stack.
  await expect
    .poll(async () => (await (await fetch(`${stack.appUrl}/api/status`)).json()).state, { timeout: 60_000 })
    .toMatch(/^(ok|degraded)$/);
  const fivexx = (s: { byStatus: Record<string, number> }) => (s.byStatus['500'] ?? 0) + (s.byStatus['503'] ?? 0);
  const before = { sim: fivexx(await stack.simStats()), log: logged().filter((l) => l.status === 500 || l.status === 503).length };
  await stack.setFaults({ errorRate: 1, errorStatuses: [500, 503] });
  try {
    await expect.poll(async () => fivexx(await stack.simStats()) - before.sim, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
  } finally {
    await stack.resetFaults();
  }
  const sent = fivexx(await stack.simStats()) - before.sim;
  // Every error the simulator answered shows up as exactly one line (answers in flight may land a moment later,
  // many seconds later on a loaded machine: the deadline only stops a hung test).
  await expect.poll(() => logged().filter((l) => l.status === 500 || l.status === 503).length - before.log, { timeout: 60_000 }).toBe(sent);
  const lines = logged().filter((l) => l.status === 500 || l.status === 503).slice(before.log);
  for (const l of lines) {
    expect(l).toMatchObject({ msg: 'upstream error', kind: 'http', operation: expect.any(String), path: expect.stringMatching(/^\//) });
    expect(l.correlationId).toMatch(/^[0-9a-f]{32}$/);
  }
  const raw = stack.appLogs();
  expect(raw.includes(stack.apiKey), 'the key in the log').toBe(false);
  // Pieces of the upstream's error envelope: the log names the error, it never copies the answer.
  for (const piece of ['"success":false', 'trace_id', '"errors":', 'Bearer']) expect(raw.includes(piece), piece).toBe(false);
  console.info(`log: ${sent} upstream 5xx answers, ${lines.length} log lines, e.g. ${JSON.stringify(lines[0])}`);
});
