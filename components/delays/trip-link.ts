// Okabe–Ito colours: told apart with the common colour-vision deficiencies, and on light or dark ground.
import type { DelayClass } from '@/lib/model';

export const DELAY_CLASS_COLOR: Record<DelayClass, string> = {
  early: '#56B4E9',
  'on-time': '#009E73',
  late: '#D55E00',
  unknown: '#999999',
};

export const DELAY_CLASS_LABEL: Record<DelayClass, string> = {
  early: 'Early',
  'on-time': 'On time',
  late: 'Late',
  unknown: 'Unknown',
};

/** Where the dispatcher view opens a trip: the home page with the trip selected. */
export function tripMapHref(tripId: number): string {
  return `/?trip=${tripId}`;
}
