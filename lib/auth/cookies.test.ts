import { describe, expect, it } from 'vitest';
import { clearCookie, cookieReader, readCookies, setCookie } from './cookies';

describe('cookies over HTTPS', () => {
  it('take the __Host- prefix (Path=/) or __Secure- (another path), and are read by their base name only so', () => {
    expect(setCookie('fleetmap_session', 'v', { maxAgeS: 60, secure: true })).toBe('__Host-fleetmap_session=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure');
    expect(setCookie('fleetmap_oidc', 'f', { maxAgeS: 60, secure: true, path: '/api/auth/oidc' })).toMatch(/^__Secure-fleetmap_oidc=f; Path=\/api\/auth\/oidc;/);
    expect(clearCookie('fleetmap_session', { secure: true })).toMatch(/^__Host-fleetmap_session=; Path=\/; Max-Age=0;/);
    expect(setCookie('fleetmap_session', 'v', { maxAgeS: 60, secure: false })).toMatch(/^fleetmap_session=v;/);
    // Over HTTPS a plain-named cookie (one a sibling subdomain or a plain-HTTP page could plant) is not read.
    const jar = readCookies('fleetmap_session=planted; __Host-fleetmap_session=real');
    expect(cookieReader(jar, true)('fleetmap_session')).toBe('real');
    expect(cookieReader(readCookies('fleetmap_session=planted'), true)('fleetmap_session')).toBeUndefined();
    expect(cookieReader(jar, false)('fleetmap_session')).toBe('planted');
  });
});
