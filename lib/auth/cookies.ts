// Cookie headers, written and read by hand: the proxy, route handlers and tests share them, and none needs more.

export interface CookieOptions {
  maxAgeS: number;
  secure: boolean;
  path?: string;
}

/** HttpOnly (no script reads it) and SameSite=Lax (no cross-site POST carries it); Secure over HTTPS. */
export function setCookie(name: string, value: string, o: CookieOptions): string {
  return [`${name}=${value}`, `Path=${o.path ?? '/'}`, `Max-Age=${Math.max(0, Math.floor(o.maxAgeS))}`, 'HttpOnly', 'SameSite=Lax', ...(o.secure ? ['Secure'] : [])].join('; ');
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
