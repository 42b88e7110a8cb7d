'use client';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RevokedDisplay } from '@/components/auth/revoked-display';
import { ApiError } from '@/lib/client/queries';
import { ViewerContext } from '@/lib/client/use-viewer';
import type { Viewer } from '@/lib/model/access';

const OPEN: Viewer = { kind: 'open', role: 'admin', warning: null };

export function Providers({ children, viewer = OPEN }: { children: React.ReactNode; viewer?: Viewer }) {
  const [revoked, setRevoked] = useState(false);
  const [client] = useState(
    () =>
      new QueryClient({
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
      }),
  );
  if (revoked) return <RevokedDisplay />;
  return (
    <ViewerContext.Provider value={viewer}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </ViewerContext.Provider>
  );
}
