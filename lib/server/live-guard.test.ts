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
