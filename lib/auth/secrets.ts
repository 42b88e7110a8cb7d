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

// OWASP's floor for scrypt is N = 2^17, r = 8, p = 1, or an equal cost with less memory: N = 2^15, r = 8, p = 3
// is that, at 32 MiB per hash instead of 128 (a burst of sign-ins must not exhaust a small server's memory).
// Hashes made with weaker parameters still verify, and are made again at the next successful sign-in.
export const SCRYPT = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_LEN = 32;

function scryptAsync(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

const maxmem = (o: { N: number; r: number }) => 128 * o.N * o.r * 2;

/** `scrypt$N$r$p$salt$hash`, all parameters kept so that stronger ones later still verify old hashes. */
export async function hashPassword(password: string, params: { N: number; r: number; p: number } = SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LEN, { ...params, maxmem: maxmem(params) });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
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

/** True when `stored` was made with less work than SCRYPT asks for today (or cannot be read). */
export function needsRehash(stored: string): boolean {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return true;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  return N * r * p < SCRYPT.N * SCRYPT.r * SCRYPT.p || N < SCRYPT.N || r < SCRYPT.r;
}

let dummy: Promise<string> | null = null;
/** Spends what a real check costs, so that an unknown name answers no faster than a wrong password. */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(newSecret());
  await verifyPassword(password, await dummy);
  return false;
}
