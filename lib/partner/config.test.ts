import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { configuredTimeRule, createConfiguredClient, embeddedUpstream, isUpstreamConfigured, readPartnerConfig } from './config';
import { wireStatus, wireSuccess } from '@/lib/testing/partner-fixtures';

const KEY = 'fm_live_config-test-key';
const URL_OK = 'https://partner.example.test/api/v1/partner';

function problems(env: Record<string, string | undefined>): string[] {
  const r = readPartnerConfig(env);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.problems;
}

describe('readPartnerConfig', () => {
  it('reads a full real-upstream configuration without exposing the key', () => {
    const r = readPartnerConfig({ PARTNER_API_BASE_URL: `${URL_OK}/`, PARTNER_API_KEY: KEY, PARTNER_TIMEZONE: 'America/New_York', PARTNER_TIMEOUT_MS: '2500' });
    expect(r).toEqual({ ok: true, config: { baseUrl: URL_OK, timezone: 'America/New_York', timeoutMs: 2500, embedded: false } });
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  it('defaults: no upstream yet, no zone, 10 s timeout; blank values count as unset', () => {
    expect(readPartnerConfig({})).toEqual({ ok: true, config: { baseUrl: null, timezone: null, timeoutMs: 10_000, embedded: false } });
    expect(readPartnerConfig({ PARTNER_API_BASE_URL: '  ', PARTNER_API_KEY: '', PARTNER_TIMEZONE: '' })).toEqual(readPartnerConfig({}));
  });

  it('names PARTNER_API_BASE_URL when it is not http(s)', () => {
    const [p] = problems({ PARTNER_API_BASE_URL: 'ftp://partner.example.test/api/v1/partner', PARTNER_API_KEY: KEY });
    expect(p).toMatch(/^PARTNER_API_BASE_URL is invalid: .*http or https/);
  });

  it('names PARTNER_API_BASE_URL when it is not a URL', () => {
    expect(problems({ PARTNER_API_BASE_URL: 'partner.example.test', PARTNER_API_KEY: KEY })[0]).toMatch(/^PARTNER_API_BASE_URL is invalid: .*not a valid URL/);
  });

  it('names PARTNER_API_BASE_URL when it does not end in /api/v1/partner', () => {
    expect(problems({ PARTNER_API_BASE_URL: 'https://partner.example.test/api/v2/partner', PARTNER_API_KEY: KEY })[0]).toMatch(
      /^PARTNER_API_BASE_URL is invalid: .*must end with \/api\/v1\/partner/,
    );
  });

  it('does not echo a base URL that carries credentials', () => {
    const [p] = problems({ PARTNER_API_BASE_URL: 'https://user:hunter2@partner.example.test/api/v1/partner', PARTNER_API_KEY: KEY });
    expect(p).toMatch(/PARTNER_API_BASE_URL .*credentials/);
    expect(p).not.toContain('hunter2');
  });

  it('names the missing half of the URL/key pair', () => {
    expect(problems({ PARTNER_API_KEY: KEY })).toEqual([expect.stringMatching(/^PARTNER_API_KEY is set but PARTNER_API_BASE_URL is not/)]);
    expect(problems({ PARTNER_API_BASE_URL: URL_OK })).toEqual([expect.stringMatching(/^PARTNER_API_BASE_URL is set but PARTNER_API_KEY is not/)]);
  });

  it('names a key with whitespace inside without quoting it', () => {
    const [p] = problems({ PARTNER_API_BASE_URL: URL_OK, PARTNER_API_KEY: 'abc def-secret' });
    expect(p).toMatch(/^PARTNER_API_KEY contains whitespace/);
    expect(p).not.toContain('def-secret');
  });

  it('names an unknown PARTNER_TIMEZONE', () => {
    expect(problems({ PARTNER_TIMEZONE: 'Mars/Olympus' })).toEqual([expect.stringMatching(/^PARTNER_TIMEZONE "Mars\/Olympus" is not a known IANA time zone/)]);
  });

  it.each(['0', '-5', '1.5', 'ten', '1e4'])('names PARTNER_TIMEOUT_MS=%s', (v) => {
    expect(problems({ PARTNER_TIMEOUT_MS: v })).toEqual([expect.stringMatching(/^PARTNER_TIMEOUT_MS .* is not a positive integer/)]);
  });

  it('lists every problem at once', () => {
    expect(problems({ PARTNER_API_KEY: KEY, PARTNER_TIMEZONE: 'Nowhere', PARTNER_TIMEOUT_MS: 'x' })).toHaveLength(3);
  });
});

describe('isUpstreamConfigured / configuredTimeRule', () => {
  it('is true only when PARTNER_API_BASE_URL is set', () => {
    expect(isUpstreamConfigured({ PARTNER_API_BASE_URL: URL_OK })).toBe(true);
    expect(isUpstreamConfigured({ PARTNER_API_BASE_URL: ' ' })).toBe(false);
    expect(isUpstreamConfigured({})).toBe(false);
  });

  it('turns PARTNER_TIMEZONE into a zone rule', () => {
    expect(configuredTimeRule({ baseUrl: null, timezone: 'Europe/Paris', timeoutMs: 1, embedded: false })).toEqual({ kind: 'zone', zone: 'Europe/Paris' });
    expect(configuredTimeRule({ baseUrl: null, timezone: null, timeoutMs: 1, embedded: false })).toBeNull();
  });
});

describe('createConfiguredClient', () => {
  const timeRule = () => ({ kind: 'offset', minutes: 0 }) as const;

  async function withServer(fn: (baseUrl: string, auth: string[]) => Promise<void>) {
    const auth: string[] = [];
    const server = http.createServer((req, res) => {
      auth.push(req.headers.authorization ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(wireSuccess(wireStatus())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/partner`, auth);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it('fails clearly when nothing is configured', () => {
    expect(() => createConfiguredClient({ timeRule, env: {} })).toThrow(/No partner upstream is configured/);
  });

  it('fails clearly, listing the problems, on a bad configuration', () => {
    expect(() => createConfiguredClient({ timeRule, env: { PARTNER_API_KEY: KEY } })).toThrow(/PARTNER_API_KEY is set but PARTNER_API_BASE_URL is not/);
  });

  it('talks to the embedded upstream when given it', async () => {
    await withServer(async (baseUrl, auth) => {
      const embedded = embeddedUpstream({ baseUrl, apiKey: 'embedded-key' });
      expect(readPartnerConfig({}, embedded)).toEqual({ ok: true, config: { baseUrl, timezone: null, timeoutMs: 10_000, embedded: true } });
      const client = createConfiguredClient({ timeRule, env: {}, embedded });
      expect((await client.status()).data.level).toBe('business');
      expect(auth).toEqual(['Bearer embedded-key']);
    });
  });

  it('prefers the environment over the embedded upstream', async () => {
    await withServer(async (baseUrl, auth) => {
      const embedded = embeddedUpstream({ baseUrl: 'http://127.0.0.1:1/api/v1/partner', apiKey: 'embedded-key' });
      const client = createConfiguredClient({ timeRule, env: { PARTNER_API_BASE_URL: baseUrl, PARTNER_API_KEY: KEY, PARTNER_TIMEOUT_MS: '3000' }, embedded });
      await client.status();
      expect(auth).toEqual([`Bearer ${KEY}`]);
    });
  });

  it('keeps the embedded key out of the config and checks the embedded base URL', () => {
    const embedded = embeddedUpstream({ baseUrl: `${URL_OK}/`, apiKey: 'embedded-secret' });
    const r = readPartnerConfig({}, embedded);
    expect(r).toEqual({ ok: true, config: { baseUrl: URL_OK, timezone: null, timeoutMs: 10_000, embedded: true } });
    expect(JSON.stringify(r)).not.toContain('embedded-secret');
    expect(JSON.stringify(embedded)).not.toContain('embedded-secret');
    expect(() => embeddedUpstream({ baseUrl: 'https://x.test/api', apiKey: 'k' })).toThrow(/\/api\/v1\/partner/);
    expect(() => embeddedUpstream({ baseUrl: URL_OK, apiKey: ' ' })).toThrow(/needs an API key/);
  });
});
