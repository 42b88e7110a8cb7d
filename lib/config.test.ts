import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateConfigAtStartup } from '@/lib/server/config-check';
import { readAppConfig, readHistoryConfig, readOpsConfig, readRegularityConfig } from './config';

describe('readAppConfig', () => {
  it('gives the documented defaults for an empty environment (blank counts as unset)', () => {
    const r = readAppConfig({ FEED_BUDGET_SHARE: '  ' });
    expect(r).toEqual({
      ok: true,
      config: {
        feed: { budgetShare: 0.8, tripsIntervalMs: 15_000, busesIntervalMs: 180_000, routesIntervalMs: 600_000, parkedFloorMs: 1_800_000, watchTtlMs: 30_000, degradedWindowMs: 120_000 },
        delay: { lateMin: 5, earlyMin: 1 },
        staleAfterS: 120,
      },
    });
  });

  it('reads every variable', () => {
    const r = readAppConfig({
      FEED_BUDGET_SHARE: '0.5',
      FEED_TRIPS_INTERVAL_S: '20',
      FEED_BUSES_INTERVAL_S: '60',
      FEED_ROUTES_INTERVAL_S: '900',
      FEED_PARKED_FLOOR_S: '120',
      FEED_WATCH_TTL_S: '45',
      FEED_DEGRADED_WINDOW_S: '20',
      DELAY_LATE_MIN: '3',
      DELAY_EARLY_MIN: '2',
      STALE_AFTER_S: '90',
    });
    expect(r.ok && r.config).toEqual({
      feed: { budgetShare: 0.5, tripsIntervalMs: 20_000, busesIntervalMs: 60_000, routesIntervalMs: 900_000, parkedFloorMs: 120_000, watchTtlMs: 45_000, degradedWindowMs: 20_000 },
      delay: { lateMin: 3, earlyMin: 2 },
      staleAfterS: 90,
    });
  });

  it('names each bad variable', () => {
    const r = readAppConfig({ FEED_BUDGET_SHARE: '1.5', FEED_TRIPS_INTERVAL_S: 'soon', DELAY_LATE_MIN: '2.5' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      'FEED_BUDGET_SHARE must be between 0.1 and 1',
      'FEED_TRIPS_INTERVAL_S must be a number',
      'DELAY_LATE_MIN must be a whole number',
    ]);
  });
});

describe('validateConfigAtStartup', () => {
  it('throws one error listing the app and the partner problems, one per line', () => {
    expect(() => validateConfigAtStartup({ FEED_BUDGET_SHARE: '0', PARTNER_API_KEY: 'k' })).toThrowError(
      /Invalid configuration:\n {2}- FEED_BUDGET_SHARE must be between 0.1 and 1\n {2}- PARTNER_API_KEY is set but PARTNER_API_BASE_URL is not/,
    );
    // The map's own settings (lib/map-style/config.ts) are checked with the rest.
    expect(() => validateConfigAtStartup({ FEED_BUDGET_SHARE: '0', MAP_STYLE_URL: 'file:///etc/passwd' })).toThrowError(
      /Invalid configuration:\n {2}- FEED_BUDGET_SHARE must be between 0.1 and 1\n {2}- MAP_STYLE_URL must be an http\(s\) URL/,
    );
  });

  describe('MAP_PMTILES', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleetmap-config-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, head: string) => {
      const path = join(dir, name);
      writeFileSync(path, Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(120)]));
      return path;
    };

    it('passes a readable PMTiles v3 archive', () => {
      expect(() => validateConfigAtStartup({ MAP_PMTILES: file('ok.pmtiles', 'PMTiles\x03') })).not.toThrow();
    });

    it.each([
      ['a missing file', () => join(dir, 'missing.pmtiles'), /MAP_PMTILES: cannot read .*missing\.pmtiles \(ENOENT\)/],
      ['a folder', () => dir, /MAP_PMTILES: .* is not a file/],
      ['another format', () => file('tiles.mbtiles', 'SQLite format 3'), /is not a PMTiles archive/],
      ['PMTiles version 2', () => file('old.pmtiles', 'PMTiles\x02'), /is PMTiles version 2; this app reads version 3/],
    ])('reports %s at start-up', (_what, path, problem) => {
      expect(() => validateConfigAtStartup({ MAP_PMTILES: path() })).toThrowError(problem);
    });
  });

  it('passes a valid environment', () => {
    expect(() => validateConfigAtStartup({ PARTNER_API_BASE_URL: 'https://p.example.org/api/v1/partner', PARTNER_API_KEY: 'k' })).not.toThrow();
  });
});

describe('readHistoryConfig', () => {
  it('defaults to the embedded store in ./data, 14 days of positions and 400 of trips', () => {
    expect(readHistoryConfig({})).toEqual({ ok: true, config: { databaseUrl: null, dataDir: resolve('data'), positionsDays: 14, tripsDays: 400, storeReset: false, storeKeyRotated: false } });
  });

  it('reads DATABASE_URL, FLEETMAP_DATA_DIR and the retention', () => {
    const r = readHistoryConfig({ DATABASE_URL: ' postgres://u:secret@db.example.org:5433/fleet ', FLEETMAP_DATA_DIR: 'var/fm', HISTORY_POSITIONS_DAYS: '7', HISTORY_TRIPS_DAYS: '30', FLEETMAP_STORE_RESET: '1', FLEETMAP_STORE_KEY_ROTATED: '0' });
    expect(r).toEqual({ ok: true, config: { databaseUrl: 'postgres://u:secret@db.example.org:5433/fleet', dataDir: resolve('var/fm'), positionsDays: 7, tripsDays: 30, storeReset: true, storeKeyRotated: false } });
    expect(readHistoryConfig({ FLEETMAP_STORE_RESET: 'yes' })).toEqual({ ok: false, problems: ['FLEETMAP_STORE_RESET must be 1 (on) or 0 (off)'] });
  });

  it('reports each problem in one sentence, never repeating the connection string', () => {
    const r = readHistoryConfig({ DATABASE_URL: 'mysql://u:hunter2@db/x', HISTORY_POSITIONS_DAYS: '0', HISTORY_TRIPS_DAYS: '1.5' });
    expect(r).toEqual({
      ok: false,
      problems: [
        'DATABASE_URL must be a postgres:// or postgresql:// URL with a host (or unset for the embedded store)',
        'HISTORY_POSITIONS_DAYS must be between 1 and 3650',
        'HISTORY_TRIPS_DAYS must be a whole number',
      ],
    });
    expect(() => validateConfigAtStartup({ DATABASE_URL: 'mysql://u:hunter2@db/x' })).toThrow(/DATABASE_URL must be/);
    expect(() => validateConfigAtStartup({ DATABASE_URL: 'mysql://u:hunter2@db/x' })).not.toThrow(/hunter2/);
  });
});

describe('readRegularityConfig', () => {
  it('gives the documented defaults and reads every variable', () => {
    expect(readRegularityConfig({})).toEqual({ ok: true, config: { ghostAfterS: 300, bunchedRatio: 0.5, gappedRatio: 1.5 } });
    expect(readRegularityConfig({ GHOST_AFTER_S: '120', HEADWAY_BUNCHED_RATIO: '0.4', HEADWAY_GAPPED_RATIO: '2' })).toEqual({
      ok: true,
      config: { ghostAfterS: 120, bunchedRatio: 0.4, gappedRatio: 2 },
    });
  });

  it('names each bad value, and start-up refuses them', () => {
    const r = readRegularityConfig({ GHOST_AFTER_S: 'soon', HEADWAY_BUNCHED_RATIO: '1.2', HEADWAY_GAPPED_RATIO: '0.9' });
    expect(r.ok ? [] : r.problems).toEqual([
      'GHOST_AFTER_S must be a number',
      'HEADWAY_BUNCHED_RATIO must be between 0.05 and 0.95',
      'HEADWAY_GAPPED_RATIO must be between 1.05 and 10',
    ]);
    expect(() => validateConfigAtStartup({ GHOST_AFTER_S: '5' })).toThrow(/GHOST_AFTER_S must be between 30 and 86400/);
  });
});

describe('readOpsConfig', () => {
  it('defaults to no metrics token and the info level; reads both', () => {
    expect(readOpsConfig({ METRICS_TOKEN: ' ', LOG_LEVEL: '' })).toEqual({ ok: true, config: { metricsToken: null, logLevel: 'info' } });
    expect(readOpsConfig({ METRICS_TOKEN: 'scrape-token-0123456789', LOG_LEVEL: 'DEBUG' })).toEqual({ ok: true, config: { metricsToken: 'scrape-token-0123456789', logLevel: 'debug' } });
  });

  it('refuses a short token or one with spaces without repeating it, and an unknown level', () => {
    const r = readOpsConfig({ METRICS_TOKEN: 'short secret', LOG_LEVEL: 'verbose' });
    expect(r.ok).toBe(false);
    const problems = r.ok ? [] : r.problems;
    expect(problems).toEqual(['METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces)', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent']);
    expect(() => validateConfigAtStartup({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of/);
  });
});
