import { describe, expect, it } from 'vitest';
import type { StoredSnapshot } from '@/lib/fleet';
import { etagMatches, parseId, snapshotResponse } from './responses';

describe('parseId', () => {
  it.each(['1', '42', '2147483648', '9007199254740991'])('accepts %s', (raw) => {
    expect(parseId(raw, 'Trip id')).toEqual({ ok: true, value: Number(raw) });
  });

  it.each(['0', '-1', '01', '1.5', '1e3', 'abc', '', ' 1', '9007199254740992', '12345678901234567'])('rejects %j with a 400 naming the id', async (raw) => {
    const r = parseId(raw, 'Trip id');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.response.status).toBe(400);
    const body = (await r.response.json()) as { error: { status: number; message: string } };
    expect(body.error.status).toBe(400);
    expect(body.error.message).toMatch(/^Trip id must be/);
  });
});

describe('ETag handling', () => {
  const stored = { snapshot: {} as StoredSnapshot['snapshot'], body: '{"version":3}', etag: 'W/"ab12-3"' };

  it('matches weak and strong forms and lists', () => {
    expect(etagMatches('W/"ab12-3"', stored.etag)).toBe(true);
    expect(etagMatches('"ab12-3"', stored.etag)).toBe(true);
    expect(etagMatches('"x", W/"ab12-3"', stored.etag)).toBe(true);
    expect(etagMatches('*', stored.etag)).toBe(true);
    expect(etagMatches('W/"ab12-2"', stored.etag)).toBe(false);
    expect(etagMatches(null, stored.etag)).toBe(false);
  });

  it('answers 304 with no body on a match, else the stored body, both with ETag and no-cache', async () => {
    const hit = snapshotResponse(new Request('http://x/api/live', { headers: { 'If-None-Match': 'W/"ab12-3"' } }), stored);
    expect(hit.status).toBe(304);
    expect(await hit.text()).toBe('');
    expect(hit.headers.get('etag')).toBe('W/"ab12-3"');
    const miss = snapshotResponse(new Request('http://x/api/live'), stored);
    expect(miss.status).toBe(200);
    expect(await miss.text()).toBe('{"version":3}');
    expect(miss.headers.get('cache-control')).toBe('no-cache');
    expect(miss.headers.get('content-type')).toBe('application/json');
  });
});
