import { isIP } from 'node:net';
import type { AuthConfig } from './config';
import { isLoopbackHost } from './config';

// DNS rebinding: with sign-in off, a web page on another site can point its own name at 127.0.0.1 and read what
// this server answers, since the browser sees one origin (the attacker's name). What gives it away is the Host
// header: it carries the attacker's name. So with sign-in off, Fleetmap answers only requests addressed to a
// loopback name or address, to PUBLIC_URL's host, or (served on a reachable address on purpose) to an IP literal:
// a rebinding needs a name, and a page opened at an IP address is that address's own origin.

type Cfg = Pick<AuthConfig, 'mode' | 'publicBind' | 'publicUrl'>;

export type HostVerdict = 'ok' | 'malformed' | 'foreign';

/** The host name of a Host header (no port, IPv6 without brackets, lower case), or null when it is not one. */
export function hostNameOf(host: string | null | undefined): string | null {
  if (!host || host.length > 261) return null;
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!m) return null;
  try {
    return new URL(`http://${host.trim()}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

/** Whether a request addressed to `host` may be answered (only sign-in off restricts the names). */
export function checkHost(host: string | null | undefined, cfg: Cfg): HostVerdict {
  // No Host at all is an HTTP/1.0 client, never a browser (which a rebinding needs).
  if (host === null || host === undefined) return 'ok';
  const name = hostNameOf(host);
  if (name === null) return 'malformed';
  if (cfg.mode !== 'none') return 'ok';
  if (isLoopbackHost(name)) return 'ok';
  if (cfg.publicUrl && name === cfg.publicUrl.hostname.replace(/^\[|\]$/g, '')) return 'ok';
  if (cfg.publicBind && isIP(name) !== 0) return 'ok';
  return 'foreign';
}

export const FOREIGN_HOST_MESSAGE =
  'Sign-in is off, so this server answers only requests addressed to localhost, 127.0.0.1 or [::1] (or to PUBLIC_URL); this request named another host and was refused.';
export const MALFORMED_HOST_MESSAGE = 'The Host header is not a host name.';

/** The refusal for a verdict other than ok: 400 for a malformed Host, 421 (Misdirected Request) for a foreign one. */
export function hostRefusal(verdict: Exclude<HostVerdict, 'ok'>): { status: 400 | 421; message: string } {
  return verdict === 'malformed' ? { status: 400, message: MALFORMED_HOST_MESSAGE } : { status: 421, message: FOREIGN_HOST_MESSAGE };
}
