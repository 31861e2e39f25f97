import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random lowercase id (default 12 characters of base 36), used in public URLs. */
export function newPublicId(length = 12): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 36];
  return out;
}
