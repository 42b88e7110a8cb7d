// The dispatcher's columns on wide screens. Each width lives here once: the Tailwind classes read it as a CSS
// variable (set on the view's root, LAYOUT_VARS) and the map's padding reads the number.
import type { CSSProperties } from 'react';

/** The trip list's column beside the map (and the trip panel's column in the list-only view). */
export const SIDE_COLUMN_WIDTH_PX = 380;
/** The trip panel floating over the map's right side. */
export const TRIP_PANEL_WIDTH_PX = 340;
/** How much of the map's right side the open panel hides: its width, its inset (`right-3`, 12 px) and 4 px of air. */
export const TRIP_PANEL_COVER_PX = TRIP_PANEL_WIDTH_PX + 16;
/** Tailwind's `md` breakpoint (48rem): from here on the list sits beside the map and the panel floats over it. */
export const WIDE_SCREEN_QUERY = '(min-width: 768px)';

export const LAYOUT_VARS = {
  '--side-column-width': `${SIDE_COLUMN_WIDTH_PX}px`,
  '--trip-panel-width': `${TRIP_PANEL_WIDTH_PX}px`,
} as CSSProperties;
