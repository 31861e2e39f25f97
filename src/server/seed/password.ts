import { randomBytes, scrypt } from 'node:crypto';

/** scrypt cost parameters of the stored format `scrypt$N=16384,r=8,p=1$<salt>$<hash>`. */
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

/**
 * Hashes a password the way the built-in SSO stores it:
 * `scrypt$N=16384,r=8,p=1$<16-byte salt, base64url>$<64-byte key, base64url>`.
 * Used for the demo accounts; the real password service reads the same format.
 */
export function hashDemoPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 }, (error, key) => {
      if (error) reject(error);
      else resolve(`scrypt$N=${N},r=${R},p=${P}$${salt.toString('base64url')}$${key.toString('base64url')}`);
    });
  });
}
