import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, readExceptionsConfig } from './config';

const SECRET = 'a-secret-of-24-characters';

describe('exceptions configuration', () => {
  it('takes the defaults, and each ALERT_* threshold within its range', () => {
    expect(readExceptionsConfig({})).toEqual({ ok: true, config: { thresholds: DEFAULT_THRESHOLDS, webhooks: [] } });
    const r = readExceptionsConfig({ ALERT_LATE_MIN: '15', ALERT_OFF_ROUTE_M: '300', ALERT_HOLD_S: '0' });
    expect(r.ok && r.config.thresholds).toMatchObject({ lateMin: 15, offRouteM: 300, holdS: 0 });
    expect(readExceptionsConfig({ ALERT_LATE_MIN: 'soon', ALERT_GPS_LOST_S: '5' })).toEqual({
      ok: false,
      problems: ['ALERT_LATE_MIN must be a number', 'ALERT_GPS_LOST_S must be a number between 30 and 86400'],
    });
  });

  it('reads webhook targets from ALERT_WEBHOOKS', () => {
    const r = readExceptionsConfig({ ALERT_WEBHOOKS: JSON.stringify([{ url: 'https://ops.example.com/hooks/fleet', secret: SECRET, rules: ['stopped', 'ghost'], minSeverity: 'warning' }, { name: 'local', url: 'http://127.0.0.1:9000/x', secret: SECRET }]) });
    expect(r.ok && r.config.webhooks).toEqual([
      { name: 'https://ops.example.com/hooks/fleet', url: 'https://ops.example.com/hooks/fleet', secret: SECRET, rules: ['stopped', 'ghost'], minSeverity: 'warning' },
      { name: 'local', url: 'http://127.0.0.1:9000/x', secret: SECRET, rules: [], minSeverity: 'info' },
    ]);
  });

  it('refuses a bad target with one sentence that names it and never shows its secret', () => {
    const problem = (target: unknown) => {
      const r = readExceptionsConfig({ ALERT_WEBHOOKS: JSON.stringify([target]) });
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.problems.join(' | ');
    };
    expect(problem({ url: 'ftp://files.example.com/drop', secret: SECRET })).toBe('ALERT_WEBHOOKS target ftp://files.example.com/drop: the url must be https (http only on loopback), not ftp.');
    expect(problem({ url: 'http://ops.example.com/hook?token=x', secret: SECRET })).toBe('ALERT_WEBHOOKS target http://ops.example.com/hook: the url must be https; plain http is allowed only on loopback.');
    expect(problem({ name: 'pager', url: 'https://ops.example.com/hook', secret: 'short-secret' })).toBe('ALERT_WEBHOOKS target "pager": the secret must be at least 16 characters.');
    expect(problem({ url: 'https://ops.example.com/hook', secret: SECRET, rules: ['late', 'meteor'] })).toMatch(/^ALERT_WEBHOOKS target https:\/\/ops\.example\.com\/hook: rules\.1 /);
    expect(readExceptionsConfig({ ALERT_WEBHOOKS: '{nope' })).toEqual({ ok: false, problems: ['ALERT_WEBHOOKS must be a JSON array of {"url","secret","rules","minSeverity"} objects.'] });
  });
});
