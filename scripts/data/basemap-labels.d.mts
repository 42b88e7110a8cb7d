// Types of basemap-labels.mjs, for its tests.
import type { Box, Position } from './basemap-geometry.mjs';

export interface StopOnShape {
  name: string;
  lon: number;
  lat: number;
}
export interface LineFeature {
  type: 'Feature';
  properties: { kind: 'street'; name?: string };
  geometry: { type: 'LineString'; coordinates: Position[] };
}
export interface PlaceFeature {
  type: 'Feature';
  properties: { kind: 'place'; name: string; rank: 1 | 2 | 3; population: number };
  geometry: { type: 'Point'; coordinates: Position };
}
export interface Located {
  index: number;
  t: number;
}

export function streetParts(stopName: string): string[];
export function sharedStreet(a: string, b: string): string | null;
export function streetLabel(name: string): string;
export function locateOnLine(line: Position[], point: Position, from?: number): Located;
export function sliceBetween(line: Position[], from: Located, to: Located): Position[];
export function streetSkeleton(directions: Array<{ shape: Position[]; stops: StopOnShape[] }>, options?: { decimals?: number }): LineFeature[];
export function placeLabels(places: Array<{ name: string; population: number; lon: number; lat: number }>, box: Box): PlaceFeature[];
