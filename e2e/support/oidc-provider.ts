// A real OpenID Connect provider for tests (the oidc-provider package) on 127.0.0.1: one confidential client,
// PKCE required, its development login form (any name and password; the name is the account), and a `groups`
// claim per account that Fleetmap maps to roles. It advertises an end_session_endpoint (RP-initiated logout).
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './stack';

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * `names`: the preferred_username of an account when it is not the account's id (two subjects may share one:
 * the provider vouches for `sub`, not for the name).
 */
export async function startOidcProvider(o: { redirectUri: string; groups: Record<string, string[]>; names?: Record<string, string> }): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientSecret = `oidc-secret-${randomBytes(16).toString('hex')}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'fleetmap',
        client_secret: clientSecret,
        redirect_uris: [o.redirectUri],
        // Where Fleetmap's sign-out comes back to after ending this provider's session (RP-initiated logout).
        post_logout_redirect_uris: [new URL('/signin?signedOut=1', o.redirectUri).href],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, preferred_username: o.names?.[id] ?? id, groups: o.groups[id] ?? [] }) };
    },
    claims: { openid: ['sub'], profile: ['preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'groups'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: [randomBytes(16).toString('hex')] },
  });
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    issuer,
    clientId: 'fleetmap',
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
