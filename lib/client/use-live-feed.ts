'use client';
// The live snapshot as every live view reads it: the one liveQuery, the server's clock for ages, and the
// state of the browser's own link to the server (for the offline and server-unreachable banners).
import { useQuery } from '@tanstack/react-query';
import type { LiveSnapshot } from '@/lib/model';
import type { ClientLink } from '@/lib/view/health';
import { liveQuery } from './queries';
import { useNow } from './use-now';
import { useOnline } from './use-online';
import { useServerNow } from './use-server-now';

export interface LiveFeed {
  snapshot: LiveSnapshot | undefined;
  /** Server time now (ms), 0 before the first snapshot. */
  now: number;
  link: ClientLink;
  isLoading: boolean;
}

/** `watchBusId` asks the server to refresh that bus first (the one a dispatcher has open). */
export function useLiveFeed(watchBusId: number | null = null): LiveFeed {
  const query = useQuery(liveQuery(watchBusId));
  const online = useOnline();
  const clientNow = useNow();
  const { now } = useServerNow(query.data?.generatedAt);
  return {
    snapshot: query.data,
    now,
    isLoading: query.isLoading,
    link: {
      online,
      fetchFailed: query.isError,
      fetchErrorMessage: query.error ? query.error.message : null,
      sinceLastSnapshotS: query.dataUpdatedAt && clientNow ? Math.max(0, (clientNow - query.dataUpdatedAt) / 1000) : null,
    },
  };
}
