// Colours of the delay classes, from the Okabe–Ito palette (distinguishable with the common colour-vision
// deficiencies). Colour is never the only cue: the list and the panel say the class in words.
import type { BusClass } from '@/lib/placement/bus';
import type { Theme } from '@/lib/theme/theme';

export const DELAY_COLORS: Record<Theme, Record<BusClass, string>> = {
  light: { early: '#0072B2', 'on-time': '#009E73', late: '#D55E00', unknown: '#CC79A7', none: '#7B8290' },
  // Lighter blue and vermillion keep contrast on a near-black basemap.
  dark: { early: '#56B4E9', 'on-time': '#19B38A', late: '#F0703A', unknown: '#D98CB8', none: '#9AA1AC' },
};

export const DELAY_LABELS: Record<BusClass, string> = {
  early: 'Early',
  'on-time': 'On time',
  late: 'Late',
  unknown: 'Delay unknown',
  none: 'No trip',
};
