'use client';
// The live snapshot as the delay board and the wall read it, with the local time it arrived (for its age).
import { useQuery } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { liveQuery } from '@/lib/client/queries';

export function useLiveSnapshot() {
  const q = useQuery(liveQuery());
  return {
    snapshot: q.data ?? null,
    /** Local time the shown snapshot arrived (React Query's dataUpdatedAt), 0 before the first. */
    receivedAt: q.dataUpdatedAt,
    /** The last refetch failed (the shown snapshot, if any, is the previous one). */
    fetchError: q.isError ? q.error : null,
    failureCount: q.failureCount,
  };
}

/**
 * The current time, re-read every `everyMs` (floored to it, so React sees one value per tick): for ticking ages
 * and clocks. null during server rendering, so the server and the first client render agree.
 */
export function useNow(everyMs = 1_000): number | null {
  const subscribe = useCallback(
    (onTick: () => void) => {
      const id = setInterval(onTick, everyMs);
      return () => clearInterval(id);
    },
    [everyMs],
  );
  return useSyncExternalStore(
    subscribe,
    () => Math.floor(Date.now() / everyMs) * everyMs,
    () => null,
  );
}
