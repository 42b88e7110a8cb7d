import { randomBytes } from 'node:crypto';
import { REVOKED_WALL_TEXT } from '@/lib/model/access';

// The few pages the guard answers itself (a role too low, a revoked wall display): plain HTML with no script, so
// they render whatever state the app is in, under a CSP of their own that admits only their nonce'd style.

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function deniedPage(status: 401 | 403, o: { title: string; body: string; dark?: boolean; links?: Array<{ href: string; label: string }> }): Response {
  const nonce = randomBytes(16).toString('base64');
  const [bg, fg, muted] = o.dark ? ['#020617', '#f8fafc', '#94a3b8'] : ['#f8fafc', '#0f172a', '#475569'];
  const links = (o.links ?? []).map((l) => `<a href="${escape(l.href)}">${escape(l.label)}</a>`).join(' · ');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(o.title)} · Fleetmap</title>
<style nonce="${nonce}">body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:${bg};color:${fg};font-family:system-ui,sans-serif}main{max-width:40rem;padding:2rem;text-align:center}h1{font-size:${o.dark ? '2.5rem' : '1.5rem'};font-weight:600}p{color:${muted};font-size:${o.dark ? '1.5rem' : '1rem'}}a{color:inherit}</style>
</head><body><main><h1>${escape(o.title)}</h1><p>${escape(o.body)}</p>${links ? `<p>${links}</p>` : ''}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'`,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

export const REVOKED_WALL = REVOKED_WALL_TEXT;
