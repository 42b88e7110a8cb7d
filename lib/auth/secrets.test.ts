import { describe, expect, it } from 'vitest';
import { hashPassword, newSecret, secretHash, verifyPassword } from './secrets';

describe('secrets', () => {
  it('hashes passwords with scrypt and a salt of their own, and verifies only the right one', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('horse');
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });

  it('secrets are 256 random bits; their hash is stable and does not contain them', () => {
    const s = newSecret();
    expect(s).toMatch(/^[\w-]{43}$/);
    expect(newSecret()).not.toBe(s);
    expect(secretHash(s)).toBe(secretHash(s));
    expect(secretHash(s)).not.toContain(s);
  });
});
