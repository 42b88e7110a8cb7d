// The map for render tests (vi.mock('@/components/map/fleet-map', () => import('@/lib/testing/fleet-map-stub'))).
// MapLibre draws on WebGL, which happy-dom has not; this stand-in shows, as text, what the view handed the map:
// how many buses it places, which one is selected, which route is drawn over it. What the map then draws is the
// end-to-end tests' (e2e/dispatcher.spec.ts, e2e/wall.spec.ts).
import type { FleetMapProps } from '@/components/map/fleet-map';

export function FleetMap({ placements, selectedBusId, routeOverlay }: FleetMapProps) {
  return (
    <figure aria-label="Map">
      <figcaption>{`${placements.length} buses on the map`}</figcaption>
      {selectedBusId != null && <p>{`Bus ${selectedBusId} selected on the map`}</p>}
      {routeOverlay && <p>{`Route ${routeOverlay.routeId} drawn on the map`}</p>}
    </figure>
  );
}
