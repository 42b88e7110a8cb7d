import type { MapOptions } from 'maplibre-gl';

/**
 * Rendering options every Fleetmap map shares (and the map benchmark uses, so it measures what ships).
 * fadeDuration 0: each bus update would otherwise replay the symbols' fade-in, several extra full redraws per
 * update; on a machine without a GPU (a headless wall display, SwiftShader) each redraw costs 100+ ms.
 */
export const FLEET_MAP_RENDER_OPTIONS = { fadeDuration: 0 } satisfies Partial<MapOptions>;
