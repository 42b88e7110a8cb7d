import 'server-only';
import type { StoredSnapshot } from '@/lib/fleet';

// The load balancer's two questions (/api/health/live and /api/health/ready), public and free: no upstream
// request, no store query. Live: the process answers. Ready: it has a snapshot to serve (a version this
// instance built or received, with data in it), so a new instance, or one whose leader never wrote, is left
// out of the rotation until it has one.

export interface HealthCheck {
  status: 200 | 503;
  body: { ready: boolean; epoch: string; version: number; message: string };
}

export function readiness(live: () => StoredSnapshot): HealthCheck {
  const { epoch, version, vehicles, unpositionedTrips, health } = live().snapshot;
  const hasData = vehicles.length > 0 || unpositionedTrips.length > 0 || health.lastSuccessAt !== null;
  if (version >= 1 && hasData) return { status: 200, body: { ready: true, epoch, version, message: 'A snapshot is served.' } };
  return { status: 503, body: { ready: false, epoch, version, message: 'No snapshot yet: this instance has no data to serve.' } };
}
