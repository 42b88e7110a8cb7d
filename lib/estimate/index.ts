// Where each bus is now: one pure module for the browser, the benchmarks and the tests.
export { directionRuns, runIndexOf, stopsForDirection, type DirectionSplit } from './direction';
export { pathForTrip, routePath, type RoutePath, type TripPath } from './path';
export {
  DEFAULT_TUNING,
  RECENT_FIXES_NEEDED,
  estimateAt,
  estimatePosition,
  plannedProgressM,
  progressAt,
  routeProgress,
  straightUntil,
  type Estimate,
  type EstimateBasis,
  type EstimateInput,
  type EstimateMotion,
  type EstimateRadius,
  type EstimateReason,
  type EstimateTrip,
  type EstimateTuning,
  type RecentFix,
} from './estimate';
