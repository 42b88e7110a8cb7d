import 'server-only';
import { authConfig } from './config';
import { OIDC_CALLBACK_PATH, OidcRelyingParty } from './oidc';
import { AuthService } from './service';
import { AuthStore, type AuthDb } from './store';

// The one AuthService of this server process. It is kept on globalThis because proxy.ts is bundled apart from
// the route handlers and pages: module state would give each its own copy (and its own store connection).

const KEY = Symbol.for('fleetmap.auth');
type Holder = { service: AuthService | null };
const holder = ((globalThis as Record<symbol, Holder>)[KEY] ??= { service: null });

/**
 * Called at server start (lib/server/start.ts) once the configuration is valid. Sign-in modes keep their rows
 * in the store, so `openDb` is only called for local and oidc.
 */
export async function startAuth(openDb: () => Promise<AuthDb>): Promise<AuthService> {
  const config = authConfig();
  const store = config.mode === 'none' ? null : new AuthStore(await openDb());
  const oidc = config.oidc && config.publicUrl ? new OidcRelyingParty(config.oidc, new URL(OIDC_CALLBACK_PATH, config.publicUrl)) : null;
  holder.service = new AuthService(config, store, undefined, oidc);
  if (config.warning) console.warn(JSON.stringify({ msg: 'sign-in is off', warning: config.warning }));
  return holder.service;
}

/** The server's AuthService; null until startAuth has run (requests wait for instrumentation, so only tests see that). */
export function authService(): AuthService | null {
  return holder.service;
}

/** For tests: a service of their own as the process's one. */
export function setAuthService(service: AuthService | null): void {
  holder.service = service;
}

export { AuthService, SESSION_COOKIE, WALL_COOKIE, WALL_COOKIE_MAX_AGE_S, type Principal } from './service';
export { AuthStore, type AuthDb } from './store';
