import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedBody, etagMatches, parseId, preferredCoding, snapshotResponse } from './http';
import type { StoredSnapshot } from './snapshot-store';

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

describe('compressed snapshot answers', () => {
  const body = JSON.stringify({ vehicles: Array.from({ length: 500 }, (_, i) => ({ busId: i + 1, lat: 40.7 + i / 1e4, lon: -74 })) });
  const stored = (version: number) => ({ snapshot: {} as StoredSnapshot['snapshot'], body: body.replace('"vehicles"', `"version":${version},"vehicles"`), etag: `W/"ab12-${version}"` });
  const ask = (s: StoredSnapshot, acceptEncoding?: string, ifNoneMatch?: string) =>
    snapshotResponse(new Request('http://x/api/live', { headers: { ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}), ...(ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {}) } }), s);

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', null],
    ['deflate', null],
    ['GZIP ; Q=1', 'gzip'],
    ['', null],
  ])('Accept-Encoding %j answers in %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });

  it('answers gzip and br that decode to the stored body, with Vary, and plain JSON to a client that accepts neither', async () => {
    const s = stored(1);
    const gz = ask(s, 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toBe('Accept-Encoding');
    const gzBytes = Buffer.from(await gz.arrayBuffer());
    expect(Number(gz.headers.get('content-length'))).toBe(gzBytes.length);
    expect(gzBytes.length).toBeLessThan(body.length / 3);
    expect(gunzipSync(gzBytes).toString()).toBe(s.body);
    const br = ask(s, 'br, gzip');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(s.body);
    const plain = ask(s);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(s.body);
  });

  it('compresses each snapshot version once per coding, and a new version afresh', () => {
    const v1 = stored(1);
    const gz = encodedBody(v1, 'gzip');
    const br = encodedBody(v1, 'br');
    // The same bytes are handed out again, not an equal recompression: the same version is never compressed twice.
    expect(encodedBody({ ...v1 }, 'gzip')).toBe(gz);
    expect(encodedBody(v1, 'br')).toBe(br);
    const v2 = stored(2);
    const gz2 = encodedBody(v2, 'gzip');
    expect(gz2).not.toBe(gz);
    expect(gunzipSync(gz2).toString()).toBe(v2.body);
  });

  it('keeps 304s bodiless and uncompressed', async () => {
    const hit = ask(stored(3), 'gzip, br', 'W/"ab12-3"');
    expect(hit.status).toBe(304);
    expect(hit.headers.get('content-encoding')).toBeNull();
    expect(hit.headers.get('vary')).toBe('Accept-Encoding');
    expect(await hit.text()).toBe('');
  });
});
