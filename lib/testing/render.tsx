// Rendering components in tests (Testing Library on happy-dom): a fresh React Query client per render, with no
// retries (a test's failed answer is the answer), and the viewer the page would be rendered for.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { ViewerContext } from '@/lib/client/use-viewer';
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
export function fakeFetch(routes: Record<string, (init: RequestInit | undefined) => { status?: number; body: unknown }>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    calls.push({ method, path: url.pathname, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    const handler = routes[`${method} ${url.pathname}`];
    const answer = handler ? handler(init) : { status: 404, body: { error: { message: `no route ${method} ${url.pathname}` } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, calls };
}
