// Cookie headers, written and read by hand: the proxy, route handlers and tests share them, and none needs more.

export interface CookieOptions {
  maxAgeS: number;
  secure: boolean;
  path?: string;
}

/**
 * A cookie's name as sent: over HTTPS with the `__Host-` prefix (Path=/, no Domain) or `__Secure-` (another path).
 * Browsers accept such a cookie only from a secure page of this very host, so a sibling subdomain or a plain-HTTP
 * page cannot plant one (a session fixed in advance) or overwrite it.
 */
export function cookieName(name: string, o: { secure: boolean; path?: string }): string {
  if (!o.secure) return name;
  return (o.path ?? '/') === '/' ? `__Host-${name}` : `__Secure-${name}`;
}

/** Reads cookies by their base names, as setCookie named them for the same `secure`. */
export function cookieReader(jar: { get(name: string): string | undefined }, secure: boolean): (name: string, path?: string) => string | undefined {
  return (name, path) => jar.get(cookieName(name, { secure, path }));
}

/** HttpOnly (no script reads it) and SameSite=Lax (no cross-site POST carries it); Secure and prefixed over HTTPS. */
export function setCookie(name: string, value: string, o: CookieOptions): string {
  return [`${cookieName(name, o)}=${value}`, `Path=${o.path ?? '/'}`, `Max-Age=${Math.max(0, Math.floor(o.maxAgeS))}`, 'HttpOnly', 'SameSite=Lax', ...(o.secure ? ['Secure'] : [])].join('; ');
}

export function clearCookie(name: string, o: Omit<CookieOptions, 'maxAgeS'>): string {
  return setCookie(name, '', { ...o, maxAgeS: 0 });
}

export function readCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}
