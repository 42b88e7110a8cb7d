// The look of one bus at low zoom (the clustered layer) and the sizes and colours the bus overlay shares with it,
// so the two never drift.
import type { CircleLayerSpecification, ExpressionSpecification } from 'maplibre-gl';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/theme/theme';

/** Outline that separates a bus from the basemap in each theme. */
export const BUS_OUTLINE: Record<Theme, string> = { light: '#ffffff', dark: '#0b1220' };

/** The selected bus's halo, and its last fix joined to its estimate. */
export const SELECTION_ACCENT: Record<Theme, string> = { light: '#1d4ed8', dark: '#93c5fd' };

export function busClassColor(theme: Theme): ExpressionSpecification {
  const c = DELAY_COLORS[theme];
  return ['match', ['get', 'cls'], 'early', c.early, 'on-time', c['on-time'], 'late', c.late, 'unknown', c.unknown, c.none];
}

/**
 * A size that grows linearly with the zoom between the given stops, times `scale` (how much bigger buses are
 * drawn: 1 on a desk, more on a wall seen from across a room).
 */
export function sizeByZoom(stops: readonly (readonly [zoom: number, size: number])[], scale = 1): ExpressionSpecification {
  return ['interpolate', ['linear'], ['zoom'], ...stops.flatMap(([zoom, size]) => [zoom, size * scale])];
}

export const BUS_RADIUS_STOPS = [[9, 3.5], [13, 5.5], [16, 7.5]] as const;

/** The value of a linear zoom interpolation (as sizeByZoom's expression gives it) at `zoom`, clamped at its ends. */
export function interpolateStops(stops: readonly (readonly [zoom: number, size: number])[], zoom: number): number {
  if (zoom <= stops[0]![0]) return stops[0]![1];
  for (let i = 1; i < stops.length; i++) {
    const [z1, v1] = stops[i]!;
    const [z0, v0] = stops[i - 1]!;
    if (zoom <= z1) return v0 + ((v1 - v0) * (zoom - z0)) / (z1 - z0);
  }
  return stops[stops.length - 1]![1];
}


const isStale: ExpressionSpecification = ['==', ['get', 'stale'], true];
const isEstimate: ExpressionSpecification = ['!=', ['get', 'basis'], 'fix'];

/**
 * Stale fixes are a faded, hollow ring in the class colour: still there, visibly not current. Estimates are a
 * ring in the class colour around a pale centre (at this zoom a dot is a few pixels: the overlay draws the finer
 * marks of each basis from street zoom on), faded too when their fix is stale.
 */
export function busCircleLayer(id: string, source: string, theme: Theme, filter?: ExpressionSpecification, scale = 1, maxzoom?: number): CircleLayerSpecification {
  const color = busClassColor(theme);
  return {
    id,
    type: 'circle',
    source,
    ...(maxzoom !== undefined ? { maxzoom } : {}),
    ...(filter ? { filter } : {}),
    paint: {
      'circle-radius': sizeByZoom(BUS_RADIUS_STOPS, scale),
      'circle-color': ['case', isEstimate, BUS_OUTLINE[theme], color],
      'circle-opacity': ['case', isStale, 0.15, isEstimate, 0.85, 1],
      'circle-stroke-color': ['case', isStale, color, isEstimate, color, BUS_OUTLINE[theme]],
      'circle-stroke-width': ['case', isStale, 2 * scale, isEstimate, 2 * scale, 1.5 * scale],
      'circle-stroke-opacity': ['case', isStale, 0.8, 1],
    },
  };
}
