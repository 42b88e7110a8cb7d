// The dispatcher view's state in the URL, so a link or a reload restores what was on screen. Parsing is
// forgiving (a hand-edited or outdated link drops what it cannot read); serializing omits defaults.
import type { DelayClass } from '@/lib/model';
import type { PositionMode } from '@/lib/placement/bus-placement';
import { DELAY_CLASSES, NO_FILTERS, SORT_KEYS, SPACING_FILTERS, type SortKey, type SpacingFilter, type TripFilters } from './trip-list';

export interface DispatcherUrlState {
  tripId: number | null;
  busId: number | null;
  /** Route drawn as an overlay. */
  routeId: number | null;
  filters: TripFilters;
  sort: SortKey;
  view: { lng: number; lat: number; zoom: number } | null;
  /** Buses drawn at their estimates (the default) or at their last fixes (`pos=fixes`). */
  positions: PositionMode;
}

export const DEFAULT_SORT: SortKey = 'delay';

export const EMPTY_URL_STATE: DispatcherUrlState = { tripId: null, busId: null, routeId: null, filters: NO_FILTERS, sort: DEFAULT_SORT, view: null, positions: 'estimates' };

// The spec bounds ids below (minimum 1) but not above; any safe integer is kept.
function positiveId(v: string | null): number | null {
  if (v === null || !/^[1-9]\d{0,15}$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : null;
}

function finiteIn(v: string | null, min: number, max: number): number | null {
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= min && n <= max ? n : null;
}

type Params = Pick<URLSearchParams, 'get'>;

export function parseDispatcherUrl(params: Params): DispatcherUrlState {
  const lng = finiteIn(params.get('lng'), -180, 180);
  const lat = finiteIn(params.get('lat'), -85, 85);
  const zoom = finiteIn(params.get('z'), 0, 22);
  const sort = params.get('sort');
  const classes = (params.get('delay') ?? '')
    .split(',')
    .filter((c): c is DelayClass => (DELAY_CLASSES as readonly string[]).includes(c));
  return {
    tripId: positiveId(params.get('trip')),
    busId: positiveId(params.get('bus')),
    routeId: positiveId(params.get('route')),
    filters: {
      query: (params.get('q') ?? '').slice(0, 100),
      routeId: positiveId(params.get('froute')),
      direction: params.get('dir') || null,
      delayClasses: [...new Set(classes)],
      staleOnly: params.get('stale') === '1',
      spacing: (SPACING_FILTERS as readonly string[]).includes(params.get('spacing') ?? '') ? (params.get('spacing') as SpacingFilter) : null,
    },
    sort: sort !== null && (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : DEFAULT_SORT,
    view: lng !== null && lat !== null && zoom !== null ? { lng, lat, zoom } : null,
    positions: params.get('pos') === 'fixes' ? 'fixes' : 'estimates',
  };
}

/** The query string (without `?`), keys in a fixed order so equal states give equal URLs. */
export function serializeDispatcherUrl(s: DispatcherUrlState): string {
  const p = new URLSearchParams();
  if (s.tripId !== null) p.set('trip', String(s.tripId));
  if (s.busId !== null) p.set('bus', String(s.busId));
  if (s.routeId !== null) p.set('route', String(s.routeId));
  if (s.filters.query) p.set('q', s.filters.query);
  if (s.filters.routeId !== null) p.set('froute', String(s.filters.routeId));
  if (s.filters.direction) p.set('dir', s.filters.direction);
  if (s.filters.delayClasses.length) p.set('delay', DELAY_CLASSES.filter((c) => s.filters.delayClasses.includes(c)).join(','));
  if (s.filters.staleOnly) p.set('stale', '1');
  if (s.filters.spacing) p.set('spacing', s.filters.spacing);
  if (s.sort !== DEFAULT_SORT) p.set('sort', s.sort);
  if (s.positions === 'fixes') p.set('pos', 'fixes');
  if (s.view) {
    p.set('lng', s.view.lng.toFixed(5));
    p.set('lat', s.view.lat.toFixed(5));
    p.set('z', s.view.zoom.toFixed(2));
  }
  return p.toString();
}

/** The dispatcher view (the home page) opened on a trip, e.g. from the delay board. */
export function tripMapHref(tripId: number): string {
  return `/?${serializeDispatcherUrl({ ...EMPTY_URL_STATE, tripId })}`;
}

/** The dispatcher view opened on a bus, e.g. from the fleet table. */
export function busMapHref(busId: number): string {
  return `/?${serializeDispatcherUrl({ ...EMPTY_URL_STATE, busId })}`;
}
