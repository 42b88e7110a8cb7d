'use client';
// The live snapshot as the delay board and the wall read it, with the age of its upstream data.
import { useQuery } from '@tanstack/react-query';
import { liveQuery } from '@/lib/client/queries';
import { useServerNow } from '@/lib/client/use-snapshot-clock';
import { upstreamDataAgeS } from '@/lib/stats/data-age';

export function useLiveSnapshot() {
  const q = useQuery(liveQuery());
  const snapshot = q.data ?? null;
  const { now: serverNow } = useServerNow(snapshot?.generatedAt);
  return {
    snapshot,
    /** Seconds since the feed last heard from the upstream, ticking; null when unknown. */
    ageS: snapshot ? upstreamDataAgeS(snapshot.health.lastSuccessAt, serverNow) : null,
    /** The last refetch failed (the shown snapshot, if any, is the previous one). */
    fetchFailed: q.isError,
  };
}
