import { describe, expect, it } from 'vitest';
import { etagMatches, parseId } from './responses';

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

describe('etagMatches', () => {
  const etag = 'W/"ab12-3"';

  it('matches weak and strong forms and lists', () => {
    expect(etagMatches('W/"ab12-3"', etag)).toBe(true);
    expect(etagMatches('"ab12-3"', etag)).toBe(true);
    expect(etagMatches('"x", W/"ab12-3"', etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
    expect(etagMatches('W/"ab12-2"', etag)).toBe(false);
    expect(etagMatches(null, etag)).toBe(false);
  });
});
