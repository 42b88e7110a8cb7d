import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requiredRole, ROUTE_ACCESS, routeAccess, SERVER_ROUTES } from './access';

const ROOT = join(__dirname, '..', '..');

/** Every page and route handler under app/ (and pages/api/, should one appear), as the URL pattern it serves. */
function routeFiles(): Array<{ file: string; pattern: string }> {
  const out: Array<{ file: string; pattern: string }> = [];
  const walk = (dir: string, base: string, isPagesRouter: boolean) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        walk(p, base, isPagesRouter);
        continue;
      }
      const rel = relative(base, p).split(sep);
      const file = rel.pop()!;
      let segments: string[];
      if (isPagesRouter) {
        if (!/\.(ts|tsx|js|mjs)$/.test(file) || file.startsWith('_')) continue;
        const stem = file.replace(/\.(ts|tsx|js|mjs)$/, '');
        segments = [...rel, ...(stem === 'index' ? [] : [stem])];
      } else {
        if (!/^(page|route)\.(ts|tsx|js)$/.test(file)) continue;
        segments = rel;
      }
      // Route groups `(name)` and parallel slots `@name` are not part of the URL.
      const url = segments.filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith('@'));
      out.push({ file: relative(ROOT, p), pattern: `/${url.join('/')}` });
    }
  };
  walk(join(ROOT, 'app'), join(ROOT, 'app'), false);
  if (existsSync(join(ROOT, 'pages'))) walk(join(ROOT, 'pages'), join(ROOT, 'pages'), true);
  // What scripts/server/server.mjs answers itself: it must say so in its source, or the entry is stale.
  const server = readFileSync(join(ROOT, 'scripts', 'server', 'server.mjs'), 'utf8');
  for (const pattern of SERVER_ROUTES) if (server.includes(`'${pattern}'`)) out.push({ file: 'scripts/server/server.mjs', pattern });
  return out;
}

describe('ROUTE_ACCESS', () => {
  const files = routeFiles();

  it('finds the app’s routes', () => {
    expect(files.map((f) => f.pattern)).toEqual(expect.arrayContaining(['/', '/wall', '/delays', '/api/live', '/api/trips/[id]']));
  });

  it('every page and route handler under app/ declares the role it needs', () => {
    const undeclared = files.filter((f) => !(f.pattern in ROUTE_ACCESS)).map((f) => `${f.file} (${f.pattern})`);
    expect(undeclared, 'add these to ROUTE_ACCESS in lib/auth/access.ts').toEqual([]);
  });

  it('declares nothing that does not exist', () => {
    const served = new Set(files.map((f) => f.pattern));
    expect(Object.keys(ROUTE_ACCESS).filter((p) => !served.has(p))).toEqual([]);
  });

  it('matches request paths to their entry, dynamic segments included', () => {
    expect(routeAccess('/api/trips/123').pattern).toBe('/api/trips/[id]');
    expect(routeAccess('/api/routes/7/stops').pattern).toBe('/api/routes/[id]/stops');
    expect(routeAccess('/api/routes').pattern).toBe('/api/routes');
    expect(routeAccess('/api/live/').pattern).toBe('/api/live');
    expect(routeAccess('/api/basemap/region.pmtiles').pattern).toBe('/api/basemap/region.pmtiles');
    expect(routeAccess('/api/basemap/regionXpmtiles').pattern).toBeNull();
    // Unknown paths need a signed-in user: nobody maps the app without one.
    expect(routeAccess('/nothing-here')).toEqual({ pattern: null, access: { role: 'viewer' } });
  });

  it('on-demand upstream calls are the dispatcher’s; watch raises /api/live to it', () => {
    expect(ROUTE_ACCESS['/api/trips/[id]'].role).toBe('dispatcher');
    expect(ROUTE_ACCESS['/api/routes/[id]/stops'].role).toBe('dispatcher');
    const live = routeAccess('/api/live').access;
    expect(requiredRole(live, new URLSearchParams(''))).toBe('viewer');
    expect(requiredRole(live, new URLSearchParams('watch=12'))).toBe('dispatcher');
    expect(requiredRole(live, new URLSearchParams('watch'))).toBe('dispatcher');
  });
});
