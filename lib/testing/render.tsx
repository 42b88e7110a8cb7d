// Rendering components in tests (Testing Library on happy-dom): a fresh React Query client per render, with no
// retries (a test's failed answer is the answer), and the viewer the page would be rendered for.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { Providers } from '@/components/providers';
import { ViewerContext } from '@/lib/client/use-viewer';
import { encodeCompactFull, encodeRoster, type CompactLiveWithRoster, type LiveSnapshot } from '@/lib/model';
import type { Viewer } from '@/lib/model/access';

export function renderWithClient(ui: ReactElement, opts: { viewer?: Viewer } & Omit<RenderOptions, 'wrapper'> = {}) {
  const { viewer = { kind: 'open', role: 'admin', warning: null }, ...rest } = opts;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>
    </QueryClientProvider>
  );
  return { client, ...render(ui, { wrapper, ...rest }) };
}

/** A fetch stand-in answering JSON by method and path; every call is recorded. Unknown paths answer 404. */
export function fakeFetch(routes: Record<string, (init: RequestInit | undefined, url: URL) => { status?: number; body: unknown }>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    calls.push({ method, path: url.pathname, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    const handler = routes[`${method} ${url.pathname}`];
    const answer = handler ? handler(init, url) : { status: 404, body: { error: { message: `no route ${method} ${url.pathname}` } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, calls };
}

/** A full compact answer of `snapshot` and the roster it names (under a test's version: the server's is a hash). */
export function compactWithRoster(snapshot: LiveSnapshot, version = `test-${snapshot.version}`): CompactLiveWithRoster {
  return { live: encodeCompactFull(snapshot, version), roster: encodeRoster(snapshot.vehicles, version) };
}

/**
 * A live page as the browser first renders it: the app's Providers holding `snapshot` (as the server hands the page
 * its first snapshot), and fetch answering /api/live with that same snapshot, the other paths with `routes` (404
 * else). Restore fetch with vi.unstubAllGlobals() after each test.
 */
export function renderLive(ui: ReactElement, opts: { snapshot?: LiveSnapshot; routes?: Parameters<typeof fakeFetch>[0]; viewer?: Viewer } = {}) {
  const { snapshot, routes = {}, viewer } = opts;
  const answers: Parameters<typeof fakeFetch>[0] = { ...routes };
  // The page's feed asks for the compact form (lib/model/live-compact.ts), and for its roster.
  const compact = snapshot && compactWithRoster(snapshot);
  if (compact) answers['GET /api/live'] = (_init, url) => ({ body: url.searchParams.get('shape') === 'roster' ? compact.roster : compact.live });
  const fake = fakeFetch(answers);
  vi.stubGlobal('fetch', fake.fetch);
  return { calls: fake.calls, ...render(<Providers live={compact} viewer={viewer}>{ui}</Providers>) };
}

/**
 * Gives every element a size (happy-dom lays nothing out, so every box measures 0 × 0): a virtualized list then
 * renders the rows that fit, as in a browser. Undo with vi.restoreAllMocks().
 */
export function layOutEveryBox(width = 1280, height = 800): void {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ width, height, top: 0, left: 0, right: width, bottom: height, x: 0, y: 0, toJSON: () => ({}) } as DOMRect);
  for (const [name, value] of [['offsetHeight', height], ['offsetWidth', width], ['clientHeight', height], ['clientWidth', width]] as const) {
    vi.spyOn(HTMLElement.prototype, name, 'get').mockReturnValue(value);
  }
}
