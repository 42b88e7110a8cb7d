import { describe, expect, it } from 'vitest';
import { simOptionsFromEnv, simRunnerFromEnv } from './options';

describe('simOptionsFromEnv', () => {
  it('uses the defaults with no variables set', () => {
    const o = simOptionsFromEnv({});
    expect(o).toMatchObject({ seed: 42, speed: 1, timezone: 'America/New_York', rateLimit: 300, admin: false, resetAt: 'epoch-s', buses: undefined, startAt: undefined });
    expect(o.keys!.map((k) => [k.key, k.plan, k.scopes.length, k.limitPerMinute])).toEqual([
      ['demo-business-key', 'business', 5, 300],
      ['demo-standard-key', 'standard', 4, 300],
      ['demo-narrow-key', 'business', 2, 300],
    ]);
  });

  it('reads every variable', () => {
    const o = simOptionsFromEnv({
      SIM_SEED: '7',
      SIM_BUSES: '10000',
      SIM_SPEED: '2.5',
      SIM_TIMEZONE: 'Europe/Paris',
      SIM_RATE_LIMIT: '60',
      SIM_ADMIN: '1',
      SIM_RESET_AT: 'delta-s',
      SIM_START_AT: '2026-03-04T08:00:00-05:00',
      SIM_KEYS: '[{"key":"partner-key-1","plan":"standard","scopes":["routes:read"]}]',
    });
    expect(o).toMatchObject({ seed: 7, buses: 10_000, speed: 2.5, timezone: 'Europe/Paris', rateLimit: 60, admin: true, resetAt: 'delta-s', startAt: Date.parse('2026-03-04T13:00:00Z') });
    expect(o.keys).toEqual([{ key: 'partner-key-1', plan: 'standard', scopes: ['routes:read'], limitPerMinute: 60 }]);
  });

  it('names every bad variable in one error', () => {
    const run = () => simOptionsFromEnv({ SIM_BUSES: '0', SIM_SPEED: 'fast', SIM_TIMEZONE: 'Nowhere/Land', SIM_RESET_AT: 'hours', SIM_ADMIN: 'maybe' });
    expect(run).toThrow(/SIM_BUSES must be an integer from 1 to 10000/);
    expect(run).toThrow(/SIM_SPEED/);
    expect(run).toThrow(/SIM_TIMEZONE/);
    expect(run).toThrow(/SIM_RESET_AT/);
    expect(run).toThrow(/SIM_ADMIN/);
    expect(() => simOptionsFromEnv({ SIM_BUSES: '10001' })).toThrow(/SIM_BUSES/);
  });

  it('explains a bad SIM_KEYS without echoing the key', () => {
    expect(() => simOptionsFromEnv({ SIM_KEYS: '[{"key":' })).toThrow(/SIM_KEYS is not valid JSON/);
    expect(() => simOptionsFromEnv({ SIM_KEYS: '{}' })).toThrow(/SIM_KEYS must be a JSON array/);
    expect(() => simOptionsFromEnv({ SIM_KEYS: '[{"key":"secret-key-9","plan":"gold","scopes":["fly"]}]' })).toThrow(/SIM_KEYS\[0\]\.plan must be "standard" or "business"/);
    expect(() => simOptionsFromEnv({ SIM_KEYS: '[{"key":"secret-key-9","plan":"gold","scopes":["fly"]}]' })).not.toThrow(/secret-key-9/);
    expect(() => simOptionsFromEnv({ SIM_KEYS: '[{"key":"abcdefgh1","plan":"business","scopes":[]},{"key":"abcdefgh1","plan":"business","scopes":[]}]' })).toThrow(/same key twice/);
  });
});

describe('simRunnerFromEnv', () => {
  it('defaults to port 4010 and no automatic exit', () => {
    expect(simRunnerFromEnv({})).toEqual({ port: 4010, exitAfterS: null, exitWithParent: false });
    expect(simRunnerFromEnv({ SIM_PORT: '4567', SIM_EXIT_AFTER_S: '30', SIM_EXIT_WITH_PARENT: '1' })).toEqual({ port: 4567, exitAfterS: 30, exitWithParent: true });
    expect(() => simRunnerFromEnv({ SIM_PORT: '70000' })).toThrow(/SIM_PORT/);
  });
});
