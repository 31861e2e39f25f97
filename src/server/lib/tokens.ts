import { createHash, randomBytes } from 'node:crypto';

/** What is stored of a secret token (a session's, an upload's): its SHA-256, so a leaked table holds no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A random 32-byte token, URL-safe. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}
