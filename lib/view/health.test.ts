import { describe, expect, it } from 'vitest';
import { budgetLabel, budgetShareLabel, healthBanners, lacksLocations, meanTripLocationAgeS, noLocationsReason, type ClientLink } from './health';
import { makeHealth, makeLiveHealth, makeVehicle, T0 } from '@/lib/testing/view-factories';

const link: ClientLink = { online: true, fetchFailed: false, fetchErrorMessage: null, sinceLastSnapshotS: 1 };

describe('healthBanners', () => {
  it('says coordination is lost, with how old the data shown is', () => {
    const health = makeLiveHealth({ state: 'ok', coordination: { lostAt: T0 - 40_000, dataAt: T0 - 95_000 } });
    const banner = healthBanners(health, link, T0).find((b) => b.id === 'coordination');
    expect(banner).toMatchObject({ tone: 'warning', title: 'Coordination lost' });
    expect(banner!.body).toContain('40 s ago');
    expect(banner!.body).toContain('built 1 min ago');
    expect(healthBanners(makeLiveHealth({ state: 'ok' }), link, T0).some((b) => b.id === 'coordination')).toBe(false);
  });

  it('shows each note from beside the feed (the recorder) as a warning', () => {
    const notes = ['history: not recording since 08:12 (connect ECONNREFUSED 127.0.0.1:5432)'];
    expect(healthBanners(makeLiveHealth(), link, T0, undefined, notes)).toEqual([{ id: 'note-0', tone: 'warning', title: 'Note', body: notes[0] }]);
  });

  it('shows nothing when all is well', () => {
    expect(healthBanners(makeLiveHealth(), link, T0)).toEqual([]);
  });

  it('explains a rejected key and keeps the data with its age', () => {
    const [b] = healthBanners(makeLiveHealth({ state: 'unauthorized', lastSuccessAt: T0 - 90_000 }), link, T0);
    expect(b).toMatchObject({ id: 'unauthorized', tone: 'error' });
    expect(b!.body).toContain('1 min ago');
  });

  it('says when a rate-limit pause ends', () => {
    const [b] = healthBanners(makeLiveHealth({ state: 'rate-limited', budget: { ...makeLiveHealth().budget, pausedUntil: T0 + 23_000 } }), link, T0);
    expect(b!.id).toBe('rate-limited');
    expect(b!.body).toContain('in 23 s');
  });

  it('reports the browser offline and a lost server link, on top of the upstream state', () => {
    const offline = healthBanners(makeLiveHealth({ state: 'unreachable' }), { ...link, online: false }, T0);
    expect(offline.map((b) => b.id)).toEqual(['offline', 'unreachable']);
    const lost = healthBanners(null, { ...link, fetchFailed: true, fetchErrorMessage: 'Failed to fetch', sinceLastSnapshotS: 40 }, T0);
    expect(lost.map((b) => b.id)).toEqual(['server']);
    expect(lost[0]!.body).toContain('40 s ago');
  });

  it('covers forbidden, degraded and starting', () => {
    for (const state of ['forbidden', 'degraded', 'starting'] as const) {
      expect(healthBanners(makeLiveHealth({ state }), link, T0).map((b) => b.id)).toEqual([state]);
    }
  });
});

describe('status figures', () => {
  it('labels the budget', () => {
    expect(budgetLabel(makeHealth())).toBe('142/240 req/min');
    expect(budgetLabel(makeHealth({ budget: { ...makeHealth().budget, limit: null, usedLastMinute: 3 } }))).toBe('3 req/min');
    expect(budgetShareLabel(makeLiveHealth())).toBe('59 % of the limit');
    expect(budgetShareLabel(makeLiveHealth({ budget: { usedShare: null, pausedUntil: null } }))).toBe('not known yet');
  });

  it('averages fix ages of positioned buses on trips only', () => {
    const vehicles = [
      makeVehicle({ busId: 1, gpsAt: T0 - 10_000 }),
      makeVehicle({ busId: 2, gpsAt: T0 - 30_000 }),
      makeVehicle({ busId: 3, gpsAt: T0 - 500_000, trip: null }),
      makeVehicle({ busId: 4, lat: null, lon: null }),
    ];
    expect(meanTripLocationAgeS(vehicles, T0)).toBe(20);
  });

  it('knows when locations are unavailable, and says why', () => {
    const standard = makeLiveHealth({ level: 'standard', locations: false });
    expect(lacksLocations(standard)).toBe(true);
    expect(noLocationsReason(standard)).toContain('API Standard');
    expect(lacksLocations(makeLiveHealth({ level: null, locations: null }))).toBe(false);
    const narrow = makeLiveHealth({ level: 'business', locations: false });
    expect(noLocationsReason(narrow)).toContain('gps:read');
  });
});
