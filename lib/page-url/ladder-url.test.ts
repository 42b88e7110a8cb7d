import { describe, expect, it } from 'vitest';
import { ladderHref, parseLadderUrl, parseRouteTokens, serializeLadderUrl } from './ladder-url';

describe('the ladder URL', () => {
  it('keeps its routes and selection in the URL', () => {
    expect(parseRouteTokens(' M15, m15,,M101 ,')).toEqual(['M15', 'M101']);
    expect(parseRouteTokens(null)).toEqual([]);
    const state = parseLadderUrl(new URLSearchParams('route=M15,M101&trip=2260001234'));
    expect(state).toEqual({ routes: ['M15', 'M101'], tripId: 2260001234 });
    expect(serializeLadderUrl(state)).toBe('route=M15,M101&trip=2260001234');
    expect(parseLadderUrl(new URLSearchParams('trip=0&route='))).toEqual({ routes: [], tripId: null });
  });

  it('links a route filter to its ladder', () => {
    expect(ladderHref(['M15', '7'])).toBe('/ladder?route=M15,7');
    expect(ladderHref([])).toBe('/ladder');
  });
});
