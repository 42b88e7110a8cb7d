import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { claimValues, identityOf, OidcRelyingParty, roleFromGroups, safeNext } from './oidc';

describe('OIDC claims to roles', () => {
  it('reads a claim as a list, through a dotted path, from an array or a space- or comma-separated string', () => {
    const claims = { groups: ['dispatch', 7, 'x'], realm_access: { roles: ['admin'] }, scope_roles: 'viewer manager', none: null };
    expect(claimValues(claims, 'groups')).toEqual(['dispatch', 'x']);
    expect(claimValues(claims, 'realm_access.roles')).toEqual(['admin']);
    expect(claimValues(claims, 'scope_roles')).toEqual(['viewer', 'manager']);
    expect(claimValues(claims, 'missing')).toBeUndefined();
    expect(claimValues(claims, 'none')).toBeUndefined();
    // Present but not a list (a number): no groups, and no second look in userinfo.
    expect(claimValues(claims, 'groups.length')).toEqual([]);
  });

  it('the highest mapped role wins; unmapped groups give nothing', () => {
    const map = new Map([
      ['fleet-dispatch', 'dispatcher'],
      ['fleet-admins', 'admin'],
      ['everyone', 'viewer'],
    ] as const);
    expect(roleFromGroups(['everyone', 'fleet-dispatch'], map)).toBe('dispatcher');
    expect(roleFromGroups(['fleet-admins', 'everyone'], map)).toBe('admin');
    expect(roleFromGroups(['admin', 'sales'], map)).toBeNull();
    expect(roleFromGroups([], map)).toBeNull();
  });

  it('without a mapping, claim values named like roles are those roles', () => {
    expect(roleFromGroups(['viewer', 'manager', 'boss'], new Map())).toBe('manager');
    expect(roleFromGroups(['boss'], new Map())).toBeNull();
  });
});

describe('safeNext', () => {
  it('keeps paths on this site, refuses anything a browser reads as another origin', () => {
    expect(safeNext('/delays?route=M15')).toBe('/delays?route=M15');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '', null, undefined, '/\nx', '/signin', '/api/live']) expect(safeNext(bad)).toBe('/');
  });
});

describe('RP-initiated logout', () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = null;
  });

  /** A provider that only answers discovery, with or without an end_session_endpoint. */
  async function provider(endSession: boolean): Promise<URL> {
    server = createServer((req, res) => {
      const issuer = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
      if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
      const meta = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, ...(endSession ? { end_session_endpoint: `${issuer}/session/end` } : {}) };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(meta));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }

  const rp = (issuer: URL) =>
    new OidcRelyingParty({ issuer, clientId: 'fleetmap', clientSecret: 'not-sent', rolesClaim: 'groups', roleMap: new Map(), scopes: 'openid' }, new URL('https://fleet.example.org/api/auth/oidc/callback'));

  it("sends the browser to the provider's end_session_endpoint with our client id and where to come back", async () => {
    const issuer = await provider(true);
    const url = await rp(issuer).endSessionUrl(new URL('https://fleet.example.org/signin?signedOut=1'));
    expect(url?.origin + url!.pathname).toBe(`${issuer.origin}/session/end`);
    expect(Object.fromEntries(url!.searchParams)).toEqual({ client_id: 'fleetmap', post_logout_redirect_uri: 'https://fleet.example.org/signin?signedOut=1' });
    expect(url!.href).not.toContain('not-sent');
  });

  it('ends only our session when the provider offers no end_session_endpoint, or cannot be reached', async () => {
    const plain = await provider(false);
    expect(await rp(plain).endSessionUrl(new URL('https://fleet.example.org/signin'))).toBeNull();
    // The same address once nobody listens there.
    await new Promise((resolve) => server!.close(resolve));
    server = null;
    const gone = plain;
    expect(await rp(gone).endSessionUrl(new URL('https://fleet.example.org/signin'))).toBeNull();
  });
});

describe('identityOf', () => {
  it('keys on issuer and subject; a name from preferred_username, an email only when verified', () => {
    expect(identityOf({ iss: 'https://idp', sub: 's1', preferred_username: 'ann', email: 'x@y', email_verified: true })).toEqual({ issuer: 'https://idp', subject: 's1', name: 'ann' });
    expect(identityOf({ iss: 'https://idp', sub: 's1', email: 'ann@example.org', email_verified: true }).name).toBe('ann@example.org');
    expect(identityOf({ iss: 'https://idp', sub: 's1', email: 'ceo@example.org' }).name).toBe('s1');
    expect(identityOf({ iss: 'https://idp', sub: 's1', email: 'ceo@example.org', email_verified: 'true' }).name).toBe('s1');
    expect(() => identityOf({ iss: 'https://idp' })).toThrow(/subject/);
  });
});
