// The look of one bus, shared by the clustered bus layer and the selected-bus layer so the two never drift.
import type { CircleLayerSpecification, ExpressionSpecification, SymbolLayerSpecification } from 'maplibre-gl';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/view/theme';
import { LABEL_FONT } from '@/lib/map-style/offline-style';
import { HEADING_ICON_SIZE } from '../heading-arrow';

export const HEADING_ICON_ID = 'fleet-heading-arrow';

/** Outline that separates a bus from the basemap in each theme. */
export const BUS_OUTLINE: Record<Theme, string> = { light: '#ffffff', dark: '#0b1220' };

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

const BUS_RADIUS_STOPS = [[9, 3.5], [13, 5.5], [16, 7.5]] as const;

// The arrow's tip sits 11 px from the centre at size 1; scaled with the circle so only the tip shows.
const ARROW_SIZE_STOPS = [[9, 0.5], [13, 0.78], [16, 1.05]] as const;

const isStale: ExpressionSpecification = ['==', ['get', 'stale'], true];

/** Stale fixes are a faded, hollow ring in the class colour: still there, visibly not current. */
export function busCircleLayer(id: string, source: string, theme: Theme, filter?: ExpressionSpecification, scale = 1): CircleLayerSpecification {
  const color = busClassColor(theme);
  return {
    id,
    type: 'circle',
    source,
    ...(filter ? { filter } : {}),
    paint: {
      'circle-radius': sizeByZoom(BUS_RADIUS_STOPS, scale),
      'circle-color': color,
      'circle-opacity': ['case', isStale, 0.15, 1],
      'circle-stroke-color': ['case', isStale, color, BUS_OUTLINE[theme]],
      'circle-stroke-width': ['case', isStale, 2 * scale, 1.5 * scale],
      'circle-stroke-opacity': ['case', isStale, 0.8, 1],
    },
  };
}

export function busHeadingLayer(id: string, source: string, theme: Theme, filter: ExpressionSpecification, minzoom = 11, scale = 1): SymbolLayerSpecification {
  return {
    id,
    type: 'symbol',
    source,
    minzoom,
    filter: ['all', filter, ['==', ['get', 'hasHeading'], true]],
    layout: {
      'icon-image': HEADING_ICON_ID,
      'icon-size': sizeByZoom(ARROW_SIZE_STOPS, scale),
      'icon-rotate': ['get', 'heading'],
      'icon-rotation-alignment': 'map',
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
    },
    paint: { 'icon-color': busClassColor(theme), 'icon-opacity': ['case', isStale, 0.4, 1] },
  };
}

/** The label's offset is in ems, so a larger text keeps clear of a circle scaled alike. */
export function busLabelLayer(id: string, source: string, theme: Theme, filter: ExpressionSpecification, minzoom: number, scale = 1): SymbolLayerSpecification {
  return {
    id,
    type: 'symbol',
    source,
    minzoom,
    filter,
    layout: {
      'text-field': ['get', 'label'],
      'text-font': [LABEL_FONT],
      'text-size': 11 * scale,
      'text-anchor': 'left',
      'text-offset': [0.9, 0],
      'text-optional': true,
    },
    paint: {
      'text-color': theme === 'dark' ? '#e2e8f0' : '#1e293b',
      'text-halo-color': theme === 'dark' ? '#0b1220' : '#ffffff',
      'text-halo-width': 1.5 * scale,
      'text-opacity': ['case', isStale, 0.6, 1],
    },
  };
}

export { HEADING_ICON_SIZE };
