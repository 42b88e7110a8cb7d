import 'server-only';
import * as client from 'openid-client';
import { ROLES, roleAtLeast, type Role } from '@/lib/model/access';
import { isLoopbackHost, type OidcConfig } from './config';

// The OpenID Connect relying party: authorization code flow with PKCE (S256), state and nonce, through
// openid-client (a certified relying party; see docs/access.md for why this library).

export const OIDC_FLOW_COOKIE = 'fleetmap_oidc';
export const OIDC_FLOW_PATH = '/api/auth/oidc';
export const OIDC_FLOW_MAX_AGE_S = 600;
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

interface Flow {
  /** PKCE code verifier, state and nonce: this browser's proof that it started the sign-in it finishes. */
  v: string;
  s: string;
  n: string;
  next: string;
}

/** Only a path on this site: never `//host` or `/\host`, which browsers read as another origin. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[\u0000-\u001f]/.test(next)) return '/';
  return next.startsWith('/signin') || next.startsWith('/api/') ? '/' : next;
}

/** The values of a claim; a dotted path reaches into objects (Keycloak's `realm_access.roles`). */
export function claimValues(claims: Record<string, unknown>, path: string): string[] | undefined {
  let v: unknown = claims;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  return [];
}

/** The highest role the groups give; with no mapping configured, groups named like a role give that role. */
export function roleFromGroups(groups: string[], roleMap: ReadonlyMap<string, Role>): Role | null {
  let best: Role | null = null;
  for (const g of groups) {
    const role = roleMap.size > 0 ? roleMap.get(g) : (ROLES as readonly string[]).includes(g) ? (g as Role) : undefined;
    if (role && (!best || roleAtLeast(role, best))) best = role;
  }
  return best;
}

export interface OidcIdentity {
  /** The issuer as the ID token names it, and the subject: together the account's key. */
  issuer: string;
  subject: string;
  /** What the account is called (preferred_username, else an email the provider verified, else the subject). */
  name: string;
  role: Role | null;
  groups: string[];
}

export class OidcRelyingParty {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    private readonly cfg: OidcConfig,
    /** PUBLIC_URL + OIDC_CALLBACK_PATH, registered with the provider. */
    readonly redirectUri: URL,
  ) {}

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const insecure = this.cfg.issuer.protocol === 'http:' && isLoopbackHost(this.cfg.issuer.hostname);
      const attempt = client.discovery(this.cfg.issuer, this.cfg.clientId, undefined, client.ClientSecretBasic(this.cfg.clientSecret), {
        execute: insecure ? [client.allowInsecureRequests] : [],
        timeout: 10,
      });
      // A provider that was down is asked again on the next sign-in, not remembered as broken.
      attempt.catch(() => {
        if (this.configuration === attempt) this.configuration = null;
      });
      this.configuration = attempt;
    }
    return this.configuration;
  }

  /** Where to send the browser, and the flow cookie's value that must come back with it. */
  async start(next: string): Promise<{ url: URL; flow: string }> {
    const config = await this.discover();
    const flow: Flow = { v: client.randomPKCECodeVerifier(), s: client.randomState(), n: client.randomNonce(), next: safeNext(next) };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri.href,
      scope: this.cfg.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(flow.v),
      code_challenge_method: 'S256',
      state: flow.s,
      nonce: flow.n,
    });
    return { url, flow: Buffer.from(JSON.stringify(flow)).toString('base64url') };
  }

  /**
   * Where to send a browser that signed out here so that the provider ends its session too (RP-initiated
   * logout), coming back to `after`; null when the provider advertises no end_session_endpoint or cannot be
   * reached (the sign-out here stands either way). The client id names us (no ID token is kept to hint with):
   * `after` must be registered with the provider as a post-logout redirect URI.
   */
  async endSessionUrl(after: URL): Promise<URL | null> {
    let config: client.Configuration;
    try {
      config = await this.discover();
    } catch {
      return null;
    }
    if (!config.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(config, { post_logout_redirect_uri: after.href, client_id: this.cfg.clientId });
  }

  /** Exchanges the code (checking state, nonce and the PKCE verifier) and reads who signed in and their groups. */
  async finish(search: URLSearchParams, flowValue: string | undefined): Promise<{ identity: OidcIdentity; next: string }> {
    const flow = parseFlow(flowValue);
    if (!flow) throw new Error('The sign-in took too long or was started in another browser; please sign in again.');
    const config = await this.discover();
    const current = new URL(this.redirectUri);
    current.search = search.toString();
    const tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.v, expectedState: flow.s, expectedNonce: flow.n, idTokenExpected: true });
    const claims = tokens.claims() as Record<string, unknown> | undefined;
    if (!claims) throw new Error('The identity provider sent no ID token.');
    // Many providers put groups, and the profile's names, in the userinfo answer only (asked once, for the ID
    // token's own subject: openid-client checks that userinfo's `sub` is the same).
    let info: Record<string, unknown> | null = null;
    const userinfo = async () => (info ??= (await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))) as Record<string, unknown>);
    const groups = claimValues(claims, this.cfg.rolesClaim) ?? claimValues(await userinfo(), this.cfg.rolesClaim) ?? [];
    const named = typeof claims.preferred_username === 'string' || claims.email_verified === true ? claims : { ...(await userinfo()), iss: claims.iss, sub: claims.sub };
    return { identity: { ...identityOf(named), role: roleFromGroups(groups, this.cfg.roleMap), groups }, next: flow.next };
  }
}

/**
 * The account's key and name from the ID token's claims: `iss` and `sub` (unique and stable at the provider), and
 * a name only to call it by. An email counts as a name only when the provider says it verified it.
 */
export function identityOf(claims: Record<string, unknown>): { issuer: string; subject: string; name: string } {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const subject = str(claims.sub);
  const issuer = str(claims.iss);
  if (!subject || !issuer) throw new Error('The ID token names no issuer or subject.');
  const email = claims.email_verified === true ? str(claims.email) : undefined;
  const name = (str(claims.preferred_username) ?? email ?? subject).replace(/[^\w.@-]/g, '_').slice(0, 64);
  return { issuer, subject, name };
}

function parseFlow(value: string | undefined): Flow | null {
  if (!value) return null;
  try {
    const f = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Flow>;
    return typeof f.v === 'string' && typeof f.s === 'string' && typeof f.n === 'string' ? { v: f.v, s: f.s, n: f.n, next: safeNext(f.next) } : null;
  } catch {
    return null;
  }
}
