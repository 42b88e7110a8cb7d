import 'server-only';
import { appSlot } from '@/lib/app-slot';
import { logger } from '@/lib/log';
import { authConfig } from './config';
import { OIDC_CALLBACK_PATH, OidcRelyingParty } from './oidc';
import { AuthService } from './service';
import { AuthStore, type AuthDb } from './store';

// The server's AuthService is built at server start (startAuth) and kept in the application context
// (lib/server/context.ts), published under the process's one key: proxy.ts, pages and route handlers are separate
// bundles, and all of them read it there. This room names only the part of the context it reads.

/**
 * Called at server start (lib/server/start.ts) once the configuration is valid. Sign-in modes keep their rows
 * in the store, so `openDb` is only called for local and oidc.
 */
export async function startAuth(openDb: () => Promise<AuthDb>): Promise<AuthService> {
  const config = authConfig();
  const store = config.mode === 'none' ? null : new AuthStore(await openDb());
  const oidc = config.oidc && config.publicUrl ? new OidcRelyingParty(config.oidc, new URL(OIDC_CALLBACK_PATH, config.publicUrl)) : null;
  const service = new AuthService(config, store, undefined, oidc);
  if (config.warning) logger().warn({ warning: config.warning }, 'sign-in is off');
  return service;
}

/** The server's AuthService; null until server start has built the application context. */
export function authService(): AuthService | null {
  return appSlot<{ readonly auth: AuthService }>().context?.auth ?? null;
}

export { AuthService, SESSION_COOKIE, WALL_COOKIE, WALL_COOKIE_MAX_AGE_S, type Principal } from './service';
export { AuthStore, type AuthDb } from './store';
