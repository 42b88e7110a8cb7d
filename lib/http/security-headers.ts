// Security headers for every page. The policy is built per request because Next.js's inline bootstrap
// scripts are allowed by a fresh nonce rather than by 'unsafe-inline'.

export interface CspOptions {
  nonce: string;
  /** Origins of a configured MAP_STYLE_URL(_DARK) (a hosted basemap fetches its style, tiles and glyphs there). */
  mapOrigins: string[];
  /** Who may frame the app (a wall display's signage player, say); 'self' by default. */
  frameAncestors: string[];
  /**
   * Origins a form may lead to besides this one: the OpenID Connect issuer's, where sign-out sends the browser
   * on to end the provider's session too (form-action holds for every redirect after a form is sent).
   */
  formOrigins?: string[];
  dev: boolean;
}

export function originsOf(urls: Array<string | undefined>): string[] {
  const out = new Set<string>();
  for (const u of urls) {
    if (!u) continue;
    try {
      const url = new URL(u);
      if (url.protocol === 'https:' || url.protocol === 'http:') out.add(url.origin);
    } catch {
      // an invalid URL is reported by the configuration check at start-up
    }
  }
  return [...out];
}

/** FRAME_ANCESTORS: space-separated origins, or 'none'. Anything that is not an origin is dropped. */
export function frameAncestorsFrom(value: string | undefined): string[] {
  if (!value || !value.trim()) return ["'self'"];
  if (value.trim() === 'none') return ["'none'"];
  const origins = originsOf(value.split(/\s+/));
  return ["'self'", ...origins];
}

export function contentSecurityPolicy(o: CspOptions): string {
  const map = o.mapOrigins.join(' ');
  const directives: Record<string, string> = {
    'default-src': "'self'",
    // 'strict-dynamic' lets the nonce'd bootstrap load the app's chunks; dev needs eval for fast refresh.
    'script-src': `'self' 'nonce-${o.nonce}' 'strict-dynamic'${o.dev ? " 'unsafe-eval'" : ''}`,
    // <style> elements only with the page's nonce (development's overlay injects its own, so it keeps inline).
    'style-src': o.dev ? "'self' 'unsafe-inline'" : `'self' 'nonce-${o.nonce}'`,
    // Style attributes cannot carry a nonce, and their values change per render (list rows' offsets, the map's
    // container, chart sizes, layout variables, all rendered into the server's HTML by React; MapLibre and
    // Recharts set some at run time), so no set of hashes could list them: attributes stay 'unsafe-inline'.
    'style-src-attr': "'unsafe-inline'",
    // MapLibre 6 runs its worker as a same-origin module (public/maplibre-gl-worker.mjs).
    'worker-src': "'self' blob:",
    'child-src': "'self' blob:",
    'img-src': `'self' data: blob:${map ? ` ${map}` : ''}`,
    'connect-src': `'self'${map ? ` ${map}` : ''}`,
    'font-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'self'",
    'form-action': ["'self'", ...(o.formOrigins ?? [])].join(' '),
    'frame-ancestors': o.frameAncestors.join(' '),
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
}
