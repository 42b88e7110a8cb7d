'use client';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RevokedDisplay } from '@/components/auth/revoked-display';
import { ApiError, firstLiveSnapshot, liveQuery } from '@/lib/client/queries';
import type { CompactLiveWithRoster } from '@/lib/model';
import { ViewerContext } from '@/lib/client/use-viewer';
import type { Viewer } from '@/lib/model/access';

const OPEN: Viewer = { kind: 'open', role: 'admin', warning: null };

export interface ProvidersProps {
  children: React.ReactNode;
  /**
   * The live snapshot as the server had it when it rendered the page, in the compact form the feed reads: the cache
   * starts with it, so the first render (on the server, and hydration) already shows the buses and the browser's
   * first poll asks only for what changed since. With the roster it names (the buses' names), which the page keeps.
   */
  live?: CompactLiveWithRoster;
  /** Who is looking (sign-in): open when sign-in is off. */
  viewer?: Viewer;
}

export function Providers({ children, live, viewer = OPEN }: ProvidersProps) {
  const [revoked, setRevoked] = useState(false);
  const [client] = useState(() => {
    const c = new QueryClient({
        // An answer saying the session ended (signed out elsewhere, expired) sends the page to the sign-in; one
        // saying a wall's token was revoked replaces the wall with that message. Neither is retried.
        queryCache: new QueryCache({
          onError: (err) => {
            if (!(err instanceof ApiError)) return;
            if (err.reason === 'wall-token-revoked') setRevoked(true);
            // A full load, not a client navigation: the sign-in page must come from the server with the session's state.
            // eslint-disable-next-line @next/next/no-location-assign-relative-destination
            else if (err.reason === 'sign-in-required') window.location.assign(`/signin?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
          },
        }),
        defaultOptions: {
          queries: { refetchOnWindowFocus: false, structuralSharing: true },
        },
      });
    if (live) c.setQueryData(liveQuery().queryKey, firstLiveSnapshot(live, c));
    return c;
  });
  if (revoked) return <RevokedDisplay />;
  return (
    <ViewerContext.Provider value={viewer}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </ViewerContext.Provider>
  );
}
