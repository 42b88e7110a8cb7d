import { describe, expect, it } from 'vitest';
import { locationOf, seeOther } from './handlers';

describe('redirects after sign-in', () => {
  it('a next path with characters outside ASCII is sent percent-encoded, with its cookie (it was a 500)', () => {
    const r = seeOther('/Ā', ['fleetmap_session=x; Path=/']);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/%C4%80');
    expect(r.headers.get('set-cookie')).toBe('fleetmap_session=x; Path=/');
  });

  it('keeps paths relative and absolute addresses (a provider’s logout) as they are', () => {
    expect(locationOf('/delays?period=week#top')).toBe('/delays?period=week#top');
    expect(locationOf('/fleet?q=Ā b')).toBe('/fleet?q=%C4%80%20b');
    expect(locationOf('https://idp.example/logout?x=1')).toBe('https://idp.example/logout?x=1');
  });
});
