import type { Trip } from '@/lib/model';

// Small factories for the history's tests.

/** A trip of route M15 on 2026-03-04, overridable field by field. */
export function trip(over: Partial<Trip> & { id: number }): Trip {
  return {
    routeId: 15,
    busId: 7,
    tripDate: '2026-03-04',
    direction: 'outbound',
    tripType: null,
    serviceKind: null,
    plannedDepartureAt: 1_000_000,
    plannedArrivalAt: 4_000_000,
    actualDepartureAt: 1_060_000,
    actualArrivalAt: null,
    status: 'started',
    delayMinutes: 1,
    routeName: 'First Avenue',
    routeCode: 'M15',
    plateNumber: 'AB-1',
    busName: 'Bus 7',
    ...over,
  };
}

