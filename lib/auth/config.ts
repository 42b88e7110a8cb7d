import 'server-only';
import { isIP } from 'node:net';
import { ROLES, type AuthMode, type Role } from '@/lib/model/access';

// Sign-in settings (AUTH_MODE, OIDC_*, TRUST_PROXY, PUBLIC_URL) and the secure default: a server other machines
// can reach never starts without sign-in unless AUTH_MODE=none says so on purpose.

type Env = Record<string, string | undefined>;

export interface OidcConfig {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** Claim holding the user's groups or roles; a dotted path reaches into objects (`realm_access.roles`). */
  rolesClaim: string;
  /** Group (claim value) → role; with no mapping given, claim values that are role names count as those roles. */
  roleMap: ReadonlyMap<string, Role>;
  scopes: string;
}

export interface AuthConfig {
  mode: AuthMode;
  /** The address the server listens on (HOST; loopback when unset). */
  host: string;
  /** True when HOST is reachable from other machines. */
  publicBind: boolean;
  /** Said in the log and on every page when sign-in is off on a reachable address. */
  warning: string | null;
  /** How many reverse proxies stand in front (TRUST_PROXY): their X-Forwarded-For/-Proto are believed. */
  trustProxyHops: number;
  /** The origin browsers use (PUBLIC_URL), when given; the OIDC redirect address is derived from it. */
  publicUrl: URL | null;
  sessionTtlMs: number;
  oidc: OidcConfig | null;
}

export type AuthConfigResult = { ok: true; config: AuthConfig } | { ok: false; problems: string[] };

const blank = (v: string | undefined) => v === undefined || v.trim() === '';

/** 127.0.0.0/8, ::1 and localhost; the server's default HOST is 127.0.0.1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (h.startsWith('::ffff:')) return h.slice(7).startsWith('127.');
  return false;
}

function parseUrl(v: string): URL | null {
  try {
    const u = new URL(v.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

function parseRoleMap(raw: string, problems: string[]): Map<string, Role> {
  const map = new Map<string, Role>();
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.lastIndexOf('=');
    const group = eq > 0 ? part.slice(0, eq).trim() : '';
    const role = eq > 0 ? part.slice(eq + 1).trim() : '';
    if (!group || !(ROLES as readonly string[]).includes(role)) {
      problems.push(`OIDC_ROLE_MAP entry "${part}" must read group=role, with role one of ${ROLES.join(', ')}`);
      continue;
    }
    map.set(group, role as Role);
  }
  return map;
}

export function readAuthConfig(env: Env = process.env): AuthConfigResult {
  const problems: string[] = [];
  const host = blank(env.HOST) ? '127.0.0.1' : env.HOST!.trim();
  const publicBind = !isLoopbackHost(host);
  const rawMode = blank(env.AUTH_MODE) ? null : env.AUTH_MODE!.trim().toLowerCase();

  let mode: AuthMode = 'none';
  if (rawMode === null) {
    if (publicBind) {
      problems.push(
        `HOST=${host} lets other machines reach Fleetmap, and no sign-in is configured: set AUTH_MODE=oidc (with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET) or AUTH_MODE=local (accounts from \`npm run users -- add NAME --role ROLE\`), or set AUTH_MODE=none to serve it without sign-in on purpose`,
      );
    }
  } else if (rawMode === 'none' || rawMode === 'local' || rawMode === 'oidc') {
    mode = rawMode;
  } else {
    problems.push(`AUTH_MODE must be none, local or oidc (got "${env.AUTH_MODE}")`);
  }

  let trustProxyHops = 0;
  if (!blank(env.TRUST_PROXY)) {
    const t = env.TRUST_PROXY!.trim().toLowerCase();
    if (t === 'true' || t === 'yes') trustProxyHops = 1;
    else if (t === 'false' || t === 'no') trustProxyHops = 0;
    else if (/^\d{1,2}$/.test(t)) trustProxyHops = Number(t);
    else problems.push(`TRUST_PROXY must be the number of reverse proxies in front of Fleetmap (0, 1, 2…) or true/false (got "${env.TRUST_PROXY}")`);
  }

  let publicUrl: URL | null = null;
  if (!blank(env.PUBLIC_URL)) {
    publicUrl = parseUrl(env.PUBLIC_URL!);
    if (!publicUrl) problems.push('PUBLIC_URL must be the http(s) address browsers open Fleetmap at, e.g. https://fleet.example.org');
  }

  let sessionTtlMs = 12 * 3_600_000;
  if (!blank(env.SESSION_TTL_H)) {
    const h = Number(env.SESSION_TTL_H);
    if (!Number.isFinite(h) || h < 0.1 || h > 24 * 30) problems.push('SESSION_TTL_H must be a number of hours between 0.1 and 720');
    else sessionTtlMs = Math.round(h * 3_600_000);
  }

  let oidc: OidcConfig | null = null;
  if (mode === 'oidc') {
    const missing = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'].filter((k) => blank(env[k]));
    for (const k of missing) problems.push(`AUTH_MODE=oidc needs ${k}`);
    if (!publicUrl && blank(env.PUBLIC_URL)) problems.push('AUTH_MODE=oidc needs PUBLIC_URL, the address browsers open Fleetmap at (the provider sends them back to PUBLIC_URL/api/auth/oidc/callback)');
    const issuer = blank(env.OIDC_ISSUER) ? null : parseUrl(env.OIDC_ISSUER!);
    if (!blank(env.OIDC_ISSUER) && !issuer) problems.push('OIDC_ISSUER must be the http(s) URL of the OpenID Connect issuer');
    // Plain HTTP to the provider only on this machine (a test or a development provider): anywhere else the
    // code exchange and the client secret would cross the network unencrypted.
    if (issuer && issuer.protocol === 'http:' && !isLoopbackHost(issuer.hostname)) problems.push('OIDC_ISSUER must use https (plain http is accepted only for a provider on this machine)');
    const roleMap = blank(env.OIDC_ROLE_MAP) ? new Map<string, Role>() : parseRoleMap(env.OIDC_ROLE_MAP!, problems);
    if (issuer && missing.length === 0) {
      oidc = {
        issuer,
        clientId: env.OIDC_CLIENT_ID!.trim(),
        clientSecret: env.OIDC_CLIENT_SECRET!,
        rolesClaim: blank(env.OIDC_ROLES_CLAIM) ? 'roles' : env.OIDC_ROLES_CLAIM!.trim(),
        roleMap,
        scopes: blank(env.OIDC_SCOPES) ? 'openid profile email' : env.OIDC_SCOPES!.trim(),
      };
    }
  }

  if (problems.length > 0) return { ok: false, problems };
  const warning =
    mode === 'none' && publicBind
      ? `Sign-in is off (AUTH_MODE=none) and Fleetmap listens on ${host}: anyone who can reach this address sees the fleet and its status`
      : null;
  return { ok: true, config: { mode, host, publicBind, warning, trustProxyHops, publicUrl, sessionTtlMs, oidc } };
}

/** The validated settings; throws with every problem listed when they are invalid (start-up already refused that). */
export function authConfig(env: Env = process.env): AuthConfig {
  const r = readAuthConfig(env);
  if (!r.ok) throw new Error(`Invalid configuration:\n${r.problems.map((p) => `  - ${p}`).join('\n')}`);
  return r.config;
}
