import { describe, expect, it } from 'vitest';
import { EMPTY_URL_STATE, parseDispatcherUrl, serializeDispatcherUrl, tripMapHref, type DispatcherUrlState } from './dispatcher-url';

const parse = (q: string) => parseDispatcherUrl(new URLSearchParams(q));

describe('dispatcher URL state', () => {
  it('round-trips a full state', () => {
    const state: DispatcherUrlState = {
      tripId: 42,
      busId: 7,
      routeId: 15,
      filters: { query: 'M15 sel', routeId: 15, direction: 'outbound', delayClasses: ['late', 'unknown'], staleOnly: true, spacing: 'bunched' },
      sort: 'age',
      view: { lng: -73.98123, lat: 40.75432, zoom: 13.5 },
      positions: 'fixes',
    };
    const qs = serializeDispatcherUrl(state);
    expect(parse(qs)).toEqual(state);
  });

  it('omits defaults, so the plain view has a bare URL', () => {
    expect(serializeDispatcherUrl(EMPTY_URL_STATE)).toBe('');
    expect(parse('')).toEqual(EMPTY_URL_STATE);
  });

  it('writes keys in a fixed order', () => {
    expect(serializeDispatcherUrl({ ...EMPTY_URL_STATE, sort: 'route', tripId: 3, busId: 9 })).toBe('trip=3&bus=9&sort=route');
  });

  it('drops what it cannot read instead of failing', () => {
    const s = parse('trip=abc&bus=-4&route=99999999999999999&sort=fastest&delay=late,bogus&z=40&lng=-73&lat=40');
    expect(s.tripId).toBeNull();
    expect(s.busId).toBeNull();
    expect(s.routeId).toBeNull();
    expect(s.sort).toBe('delay');
    expect(s.filters.delayClasses).toEqual(['late']);
    expect(s.view).toBeNull();
  });

  it('keeps the choice of last fixes over estimates, and reads anything else as estimates', () => {
    expect(serializeDispatcherUrl({ ...EMPTY_URL_STATE, positions: 'fixes' })).toBe('pos=fixes');
    expect(parse('pos=fixes').positions).toBe('fixes');
    expect(parse('pos=guess').positions).toBe('estimates');
  });

  it('keeps ids beyond 32 bits (the spec sets no maximum)', () => {
    expect(parse('trip=2517002476').tripId).toBe(2517002476);
  });

  it('needs all three of lng, lat and z for a view', () => {
    expect(parse('lng=-73.9&lat=40.7').view).toBeNull();
    expect(parse('lng=-73.9&lat=40.7&z=12').view).toEqual({ lng: -73.9, lat: 40.7, zoom: 12 });
  });

  it('links the delay board to a trip on the map', () => {
    expect(tripMapHref(42)).toBe('/?trip=42');
    expect(parse(tripMapHref(2517002476).slice(2)).tripId).toBe(2517002476);
  });
});
