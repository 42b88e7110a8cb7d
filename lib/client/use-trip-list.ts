'use client';
// The dispatcher's list as the screen shows it: every active trip of the snapshot (the one projection),
// filtered and sorted as the URL says, with the counts and options the filters offer.
import { useMemo } from 'react';
import type { HeadwayClass, LiveSnapshot } from '@/lib/model';
import { directionOptions, filterTrips, routeOptions, sortTrips, type ClassCounts, type RouteOption, type SortKey, type TripFilters } from '@/lib/view/trip-list';
import { activeTrips, type ActiveTrip } from '@/lib/view/trips';

export interface TripList {
  /** Every active trip. */
  trips: ActiveTrip[];
  /** The trips passing the filters, in the chosen order. */
  shown: ActiveTrip[];
  counts: ClassCounts;
  routes: RouteOption[];
  directions: string[];
}

export function useTripList(snapshot: LiveSnapshot | undefined, filters: TripFilters, sort: SortKey, ctx: { now: number; staleAfterS: number; spacing?: ReadonlyMap<number, HeadwayClass> }): TripList {
  const { now, staleAfterS, spacing } = ctx;
  const trips = useMemo(() => (snapshot ? activeTrips(snapshot) : []), [snapshot]);
  const { rows: filtered, counts } = useMemo(() => filterTrips(trips, filters, { now, staleAfterS, spacing }), [trips, filters, now, staleAfterS, spacing]);
  const shown = useMemo(() => sortTrips(filtered, sort, now), [filtered, sort, now]);
  const routes = useMemo(() => routeOptions(trips), [trips]);
  const directions = useMemo(() => directionOptions(trips), [trips]);
  return { trips, shown, counts, routes, directions };
}
