import { describe, expect, it } from 'vitest';
import { isLoopbackHost, readAuthConfig } from './config';

const OIDC = { AUTH_MODE: 'oidc', OIDC_ISSUER: 'https://id.example.org/realms/agency', OIDC_CLIENT_ID: 'fleetmap', OIDC_CLIENT_SECRET: 's3cret', PUBLIC_URL: 'https://fleet.example.org' };

describe('readAuthConfig', () => {
  it('no configuration on loopback: no sign-in, silently', () => {
    for (const HOST of [undefined, '', '127.0.0.1', 'localhost', '::1', '127.0.1.1']) {
      const r = readAuthConfig({ HOST });
      expect(r.ok && r.config).toMatchObject({ mode: 'none', publicBind: false, warning: null });
    }
  });

  it('refuses a reachable address with no AUTH_MODE, in one sentence naming both ways out', () => {
    for (const HOST of ['0.0.0.0', '::', '10.1.2.3', 'fleet.internal']) {
      const r = readAuthConfig({ HOST });
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toContain(`HOST=${HOST}`);
      expect(r.problems[0]).toMatch(/AUTH_MODE=oidc .*AUTH_MODE=local .*AUTH_MODE=none/);
    }
  });

  it('AUTH_MODE=none on a reachable address starts, with a warning', () => {
    const r = readAuthConfig({ HOST: '0.0.0.0', AUTH_MODE: 'none' });
    expect(r.ok && r.config.mode).toBe('none');
    expect(r.ok && r.config.warning).toMatch(/Sign-in is off .*0\.0\.0\.0/);
  });

  it('local mode needs nothing more', () => {
    const r = readAuthConfig({ HOST: '0.0.0.0', AUTH_MODE: 'Local' });
    expect(r.ok && r.config).toMatchObject({ mode: 'local', warning: null, trustProxyHops: 0, sessionTtlMs: 12 * 3_600_000 });
  });

  it('reads the OIDC settings, the roles claim and the group mapping', () => {
    const r = readAuthConfig({ ...OIDC, OIDC_ROLES_CLAIM: 'realm_access.roles', OIDC_ROLE_MAP: 'fleet-admins=admin, dispatch=dispatcher,a=b=viewer', TRUST_PROXY: '1' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.oidc?.issuer.href).toBe('https://id.example.org/realms/agency');
    expect(r.config.oidc?.rolesClaim).toBe('realm_access.roles');
    expect([...(r.config.oidc?.roleMap ?? [])]).toEqual([
      ['fleet-admins', 'admin'],
      ['dispatch', 'dispatcher'],
      ['a=b', 'viewer'],
    ]);
    expect(r.config.trustProxyHops).toBe(1);
  });

  it('names every missing or wrong OIDC setting', () => {
    const r = readAuthConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: 'http://id.example.org', OIDC_ROLE_MAP: 'x=boss' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual(
      expect.arrayContaining([
        'AUTH_MODE=oidc needs OIDC_CLIENT_ID',
        'AUTH_MODE=oidc needs OIDC_CLIENT_SECRET',
        expect.stringMatching(/^AUTH_MODE=oidc needs PUBLIC_URL/),
        expect.stringMatching(/^OIDC_ISSUER must use https/),
        expect.stringMatching(/^OIDC_ROLE_MAP entry "x=boss"/),
      ]),
    );
    // The secret is never part of a message, even a wrong one.
    expect(JSON.stringify(readAuthConfig({ ...OIDC, OIDC_ISSUER: 'nope' }))).not.toContain('s3cret');
  });

  it('plain http to a provider on this machine is accepted', () => {
    expect(readAuthConfig({ ...OIDC, OIDC_ISSUER: 'http://127.0.0.1:4555' }).ok).toBe(true);
  });

  it('rejects unknown modes and bad TRUST_PROXY values', () => {
    const r = readAuthConfig({ AUTH_MODE: 'ldap', TRUST_PROXY: 'maybe' });
    expect(r.ok ? [] : r.problems).toEqual([expect.stringMatching(/^AUTH_MODE must be none, local or oidc/), expect.stringMatching(/^TRUST_PROXY must be/)]);
  });
});

describe('isLoopbackHost', () => {
  it('tells loopback from reachable addresses', () => {
    expect(['127.0.0.1', '127.9.9.9', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'].map(isLoopbackHost)).toEqual([true, true, true, true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.2', 'example.org', '128.0.0.1'].map(isLoopbackHost)).toEqual([false, false, false, false, false]);
  });
});
