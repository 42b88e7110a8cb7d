// Physical stops: the API lists each route's stops apart, so one kerb served by three routes is three route stops.
// Route stops with the same name (case and spacing aside) within PLACE_RADIUS_M of each other are one place.
import { distanceM } from '@/lib/geo/sphere';
import type { RouteStop } from '@/lib/model';
import type { StopPlace } from '@/lib/model/predictions';

export const PLACE_RADIUS_M = 30;

const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

export interface RouteInfo {
  code: string | null;
  name: string | null;
}

export interface Places {
  /** The place of a route stop id; undefined for an id no loaded route lists. */
  of(stopId: number): StopPlace | undefined;
}

/** Groups the loaded routes' stops into places (same name, chained within PLACE_RADIUS_M). */
export function groupPlaces(stopsByRoute: ReadonlyMap<number, readonly RouteStop[]>, routeInfo: (routeId: number) => RouteInfo): Places {
  type Placed = RouteStop & { latitude: number; longitude: number };
  const byName = new Map<string, Placed[]>();
  for (const stops of stopsByRoute.values()) {
    for (const s of stops) {
      if (s.latitude === null || s.longitude === null) continue;
      const key = nameKey(s.stopName);
      const list = byName.get(key) ?? [];
      list.push(s as Placed);
      byName.set(key, list);
    }
  }
  const placeOf = new Map<number, StopPlace>();
  for (const list of byName.values()) {
    // Union-find over the stops of one name: a few per name, so pairs are cheap.
    const parent = list.map((_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (distanceM(list[i]!.longitude, list[i]!.latitude, list[j]!.longitude, list[j]!.latitude) <= PLACE_RADIUS_M) parent[find(i)] = find(j);
      }
    }
    const groups = new Map<number, Placed[]>();
    list.forEach((s, i) => {
      const root = find(i);
      groups.set(root, [...(groups.get(root) ?? []), s]);
    });
    for (const members of groups.values()) {
      const routeIds = [...new Set(members.map((s) => s.routeId))].sort((a, b) => a - b);
      const place: StopPlace = {
        name: members[0]!.stopName,
        lat: members.reduce((sum, s) => sum + s.latitude, 0) / members.length,
        lon: members.reduce((sum, s) => sum + s.longitude, 0) / members.length,
        stopIds: members.map((s) => s.id).sort((a, b) => a - b),
        routes: routeIds.map((routeId) => ({ routeId, ...routeInfo(routeId) })),
      };
      for (const s of members) placeOf.set(s.id, place);
    }
  }
  return { of: (stopId) => placeOf.get(stopId) };
}
