'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { liveQuery } from '@/lib/client/queries';
import type { LiveSnapshot } from '@/lib/model';

export interface ProvidersProps {
  children: React.ReactNode;
  /**
   * The live snapshot as the server had it when it rendered the page: the cache starts with it, so the first
   * render (on the server, and hydration) already shows the buses and the browser's first poll asks only for
   * what changed since.
   */
  live?: LiveSnapshot;
}

export function Providers({ children, live }: ProvidersProps) {
  const [client] = useState(() => {
    const c = new QueryClient({
      defaultOptions: {
        queries: { refetchOnWindowFocus: false, structuralSharing: true },
      },
    });
    if (live) c.setQueryData(liveQuery().queryKey, live);
    return c;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
