import { describe, expect, it } from 'vitest';
import { authConfig } from '@/lib/auth/config';
import { guardRequest } from '@/lib/auth/guard';
import { AuthService } from '@/lib/auth';
import { CLIENT_ADDRESS_HEADER, CLIENT_PRINCIPAL_HEADER } from '@/lib/http/client-key';
import type { LiveRequest, RawAnswer } from '@/lib/http/live-answer';
import { guardedLive } from './live-guard';

const ok: RawAnswer = { status: 200, headers: {}, body: Buffer.from('{}') };

describe('guardedLive', () => {
  it('with sign-in off lets the poll through as the guard would, without a principal a client could forge', async () => {
    const service = new AuthService(authConfig({ AUTH_MODE: 'none' }), null);
    const seen: LiveRequest[] = [];
    const live = guardedLive(service, (req) => (seen.push(req), ok));
    const headers = { host: '127.0.0.1:3000', [CLIENT_ADDRESS_HEADER]: '10.0.0.9', [CLIENT_PRINCIPAL_HEADER]: 'session:forged', 'accept-encoding': 'gzip' };
    expect(await live({ method: 'GET', url: '/api/live?since=abc-3', headers })).toBe(ok);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toEqual({ host: '127.0.0.1:3000', [CLIENT_ADDRESS_HEADER]: '10.0.0.9', 'accept-encoding': 'gzip' });
    expect(seen[0]!.routes).toBeNull();
    // What the full check decides for the same request: allowed, as nobody in particular.
    const outcome = await guardRequest(service, { method: 'GET', url: new URL('http://127.0.0.1:3000/api/live?since=abc-3'), headers: new Headers(headers) });
    expect(outcome).toEqual({ kind: 'allow', principal: { kind: 'open' } });
  });

  it('with sign-in on refuses a caller without a session before the feed is asked', async () => {
    let asked = 0;
    const live = guardedLive(new AuthService(authConfig({ AUTH_MODE: 'local' }), null), () => (asked++, ok));
    const a = await live({ method: 'GET', url: '/api/live', headers: { [CLIENT_PRINCIPAL_HEADER]: 'session:forged' } });
    expect(a.status).toBe(401);
    expect(asked).toBe(0);
  });
});

describe('guardedLive: what the request line and the Host header may say', () => {
  it('with sign-in off answers only loopback names and addresses, or PUBLIC_URL’s host (DNS rebinding)', async () => {
    const live = guardedLive(new AuthService(authConfig({ AUTH_MODE: 'none', PUBLIC_URL: 'http://fleet.example.org' }), null), () => ok);
    const at = (host: string) => live({ method: 'GET', url: '/api/live', headers: { host } });
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'fleet.example.org']) expect((await at(host)).status).toBe(200);
    const refused = await at('rebind.attacker.example:3000');
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body!.toString()).error.message).toMatch(/answers only requests addressed to localhost/);
    // A Host that is not a host name is bad input, not a crash.
    for (const host of ['[zz', 'a b', '[1:2]', 'x:99999999']) expect((await at(host)).status).toBe(400);
  });

  it('the check and the answer read one parse of the query; a target holding # is refused', async () => {
    const seen: LiveRequest[] = [];
    const live = guardedLive(new AuthService(authConfig({ AUTH_MODE: 'none' }), null), (req) => (seen.push(req), ok));
    expect((await live({ method: 'GET', url: '/api/live?x#&watch=5', headers: { host: 'localhost' } })).status).toBe(400);
    expect(seen).toHaveLength(0);
    expect((await live({ method: 'GET', url: '/api/live?watch=5', headers: { host: 'localhost' } })).status).toBe(200);
    expect(seen[0]!.query?.get('watch')).toBe('5');
  });
});
