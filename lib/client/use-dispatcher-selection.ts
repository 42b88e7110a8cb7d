'use client';
// The dispatcher's selection: which trip and bus the URL names, what they point at in the snapshot now,
// follow mode, and the ways to change them (a list row, a bus on the map, Esc). Selections made here always
// write both trip and bus to the URL; a deep link may name either.
import { useCallback, useMemo, useState } from 'react';
import type { LiveSnapshot, Vehicle } from '@/lib/model';
import type { DispatcherUrlState } from '@/lib/view/dispatcher-url';
import { resolveSelection, type Selection } from '@/lib/view/trip-list';
import type { ActiveTrip } from '@/lib/view/trips';
import type { UrlPatch } from './use-dispatcher-url';

export interface DispatcherSelection {
  selection: Selection;
  /** The selected bus as the snapshot has it; null when none is selected or the snapshot lacks it. */
  vehicle: Vehicle | null;
  hasSelection: boolean;
  follow: boolean;
  setFollow: (follow: boolean | ((f: boolean) => boolean)) => void;
  selectTrip: (trip: ActiveTrip) => void;
  selectBus: (busId: number | null) => void;
  clearSelection: () => void;
}

export function useDispatcherSelection(
  url: Pick<DispatcherUrlState, 'tripId' | 'busId'>,
  updateUrl: (patch: UrlPatch) => void,
  trips: readonly ActiveTrip[],
  snapshot: LiveSnapshot | undefined,
): DispatcherSelection {
  const [follow, setFollow] = useState(false);
  const selection = resolveSelection(url, trips);
  const vehicle = useMemo(
    () => (snapshot && selection.busId !== null ? (snapshot.vehicles.find((v) => v.busId === selection.busId) ?? null) : null),
    [snapshot, selection.busId],
  );

  // Any new selection starts without follow mode: following is asked for, bus by bus.
  const selectTrip = useCallback(
    (trip: ActiveTrip) => {
      setFollow(false);
      updateUrl({ tripId: trip.tripId, busId: trip.busId });
    },
    [updateUrl],
  );
  const selectBus = useCallback(
    (busId: number | null) => {
      setFollow(false);
      const v = busId !== null ? snapshot?.vehicles.find((x) => x.busId === busId) : undefined;
      updateUrl({ busId, tripId: v?.trip?.tripId ?? null });
    },
    [snapshot, updateUrl],
  );
  const clearSelection = useCallback(() => {
    setFollow(false);
    updateUrl({ tripId: null, busId: null });
  }, [updateUrl]);

  return { selection, vehicle, hasSelection: selection.tripId !== null || selection.busId !== null, follow, setFollow, selectTrip, selectBus, clearSelection };
}
