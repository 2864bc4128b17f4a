// API keys (D3): `kurs_` + 32 base62 characters; only the SHA-256 is stored, with the first 8
// characters after the prefix kept so an operator can tell keys apart.
import { hash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'kurs_';
const KEY_BODY_LENGTH = 32;
/** What a key looks like; anything else is refused without asking the database. */
export const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_BODY_LENGTH}}$`);

/** Uniform base62: bytes >= 248 are dropped so that no character is more likely than another. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

export function generateKey(): string {
  return KEY_PREFIX + randomBase62(KEY_BODY_LENGTH);
}

/** One-shot `crypto.hash`: it runs on every request, and a Hash object per call cost about twice as much. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function displayPrefix(key: string): string {
  return key.slice(KEY_PREFIX.length, KEY_PREFIX.length + 8);
}

export const newAccountId = (): string => `acc_${randomBase62(16)}`;
export const newKeyId = (): string => `key_${randomBase62(16)}`;
