import 'server-only';
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Secrets handed to browsers (session ids, wall tokens) are 32 random bytes; the store keeps only their SHA-256,
// so a copy of the store signs nobody in. Passwords get scrypt, which is slow and memory-hard on purpose.

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

// N = 2^15, r = 8: 32 MiB and some tens of milliseconds per hash, OWASP's scrypt floor (2^17 with r = 8 is its
// stronger option; this one keeps a burst of sign-ins from exhausting a small server's memory).
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LEN = 32;

function scryptAsync(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

const maxmem = (o: { N: number; r: number }) => 128 * o.N * o.r * 2;

/** `scrypt$N$r$p$salt$hash`, all parameters kept so that stronger ones later still verify old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LEN, { ...SCRYPT, maxmem: maxmem(SCRYPT) });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  const key = await scryptAsync(password, Buffer.from(parts[4]!, 'base64url'), expected.length, { N, r, p, maxmem: maxmem({ N, r }) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | null = null;
/** Spends what a real check costs, so that an unknown name answers no faster than a wrong password. */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(newSecret());
  await verifyPassword(password, await dummy);
  return false;
}
