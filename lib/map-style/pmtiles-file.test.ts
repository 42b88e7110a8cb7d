import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRange, pmtilesResponse } from './pmtiles-file';

const dir = mkdtempSync(join(tmpdir(), 'fleetmap-pmtiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = join(dir, 'region.pmtiles');
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
writeFileSync(FILE, BYTES);

function get(headers: Record<string, string> = {}, method = 'GET') {
  return pmtilesResponse(new Request('http://127.0.0.1/api/basemap/region.pmtiles', { method, headers }), FILE);
}

async function body(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

describe('parseRange', () => {
  it('reads the three forms of a byte range, clamped to the file', () => {
    expect(parseRange('bytes=0-16383', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange('bytes=10-19', 1000)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=990-', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=-5', 1000)).toEqual({ start: 995, end: 999 });
  });

  it('answers several ranges with the one range covering them', () => {
    expect(parseRange('bytes=500-509, 10-19', 1000)).toEqual({ start: 10, end: 509 });
  });

  it('ignores what is not a valid bytes range, and finds a range past the end unsatisfiable', () => {
    for (const h of [null, 'items=0-1', 'bytes=', 'bytes=-', 'bytes=5-1', 'bytes=a-b', 'bytes=1-2-3']) expect(parseRange(h, 1000), String(h)).toBeNull();
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });
});

describe('pmtilesResponse', () => {
  it('answers a range with 206, the bytes asked for, Content-Range and a strong ETag', async () => {
    const res = await get({ Range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('content-length')).toBe('100');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect((await body(res)).equals(BYTES.subarray(100, 200))).toBe(true);
  });

  it('answers no range with the whole file, and HEAD with its headers only', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBeNull();
    expect((await body(res)).equals(BYTES)).toBe(true);
    const head = await get({ Range: 'bytes=0-9' }, 'HEAD');
    expect(head.status).toBe(206);
    expect(head.headers.get('content-length')).toBe('10');
    expect((await body(head)).length).toBe(0);
  });

  it('honours If-Range only for the current ETag, and If-None-Match with a 304', async () => {
    const etag = (await get()).headers.get('etag')!;
    expect((await get({ Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
    const stale = await get({ Range: 'bytes=0-9', 'If-Range': '"0-0"' });
    expect(stale.status).toBe(200);
    expect((await body(stale)).length).toBe(1000);
    expect((await get({ 'If-None-Match': etag })).status).toBe(304);
    expect((await get({ 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('answers a range past the end with 416 and the file size', async () => {
    const res = await get({ Range: 'bytes=5000-6000' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
  });

  it('answers 503 without naming the path when the file has gone', async () => {
    const res = await pmtilesResponse(new Request('http://127.0.0.1/x'), join(dir, 'gone.pmtiles'));
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).toContain('not readable');
    expect(text).not.toContain(dir);
  });
});
