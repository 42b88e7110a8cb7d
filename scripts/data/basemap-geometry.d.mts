// Types of basemap-geometry.mjs, for its tests.
export type Position = [number, number];
export type Ring = Position[];
export type Box = [number, number, number, number];
export type PolygonRings = Ring[];
export type PolygonGeometry = { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };

export interface SimplifyOptions {
  tolerance: number;
  decimals: number;
  minArea?: number;
  xScale?: number;
}

export function padBox(box: Box, km: number): Box;
export function assertBox(value: unknown, what: string): Box;
export function ringBox(ring: Ring): Box;
export function boxesIntersect(a: Box, b: Box): boolean;
export function clipRingToBox(ring: Ring, box: Box): Ring | null;
export function signedArea(ring: Ring, xScale?: number): number;
export function simplifyLine(points: Position[], tolerance: number, xScale?: number): Position[];
export function simplifyRing(ring: Ring, tolerance: number, xScale?: number): Ring;
export function roundRing(ring: Ring, decimals: number): Ring;
export function simplifyAndRound(ring: Ring, options: SimplifyOptions): Ring | null;
export function pointInRing(point: Position, ring: Ring): boolean;
export function nestRings(rings: Ring[], box?: Box | null): PolygonRings[];
export function splitAtAntimeridian(ring: Ring): Ring[];
export function preparePolygons(geometries: PolygonGeometry[], options: SimplifyOptions & { box?: Box | null }): PolygonRings[];
export function decodeArcs(topology: unknown): Position[][];
export function topologyPolygons(topology: unknown, objectName: string): PolygonGeometry[];
export function countPoints(polygons: PolygonRings[]): number;
