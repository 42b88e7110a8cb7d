// Small factories for stats tests: only the fields a test cares about, the rest neutral.
import type { ActiveTrip } from './active-trips';

let nextTripId = 1;

export function trip(over: Partial<ActiveTrip> = {}): ActiveTrip {
  return {
    tripId: nextTripId++,
    routeId: 1,
    routeCode: 'M1',
    routeName: 'Fifth Avenue',
    direction: 'outbound',
    status: 'started',
    delayMinutes: 0,
    delayClass: 'on-time',
    plannedDepartureAt: null,
    plannedArrivalAt: null,
    actualDepartureAt: null,
    actualArrivalAt: null,
    busId: null,
    plateNumber: null,
    busName: null,
    positioned: false,
    ...over,
  };
}
