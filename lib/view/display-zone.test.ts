import { describe, expect, it } from 'vitest';
import { isZoneChoice, resolveDisplayZone, zoneCaption } from './display-zone';

describe('the zone times are shown in', () => {
  it("is the agency's by default, named", () => {
    const z = resolveDisplayZone('agency', 'America/New_York', 'Europe/Paris');
    expect(z).toEqual({ zone: 'America/New_York', name: 'America/New_York', kind: 'agency' });
    expect(zoneCaption(z)).toBe('agency time, America/New_York');
  });

  it("is the browser's when chosen, or while the agency's zone is not known", () => {
    expect(resolveDisplayZone('browser', 'UTC-05:00', 'Europe/Paris')).toEqual({ zone: undefined, name: 'Europe/Paris', kind: 'browser' });
    const unknown = resolveDisplayZone('agency', null, 'Asia/Tokyo');
    expect(unknown.kind).toBe('browser');
    expect(zoneCaption(unknown)).toBe("this browser's time, Asia/Tokyo");
  });

  it('reads only the two choices back from storage', () => {
    expect(isZoneChoice('agency')).toBe(true);
    expect(isZoneChoice('browser')).toBe(true);
    expect(isZoneChoice('local')).toBe(false);
    expect(isZoneChoice(null)).toBe(false);
  });
});
