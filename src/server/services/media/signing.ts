/**
 * Signed, expiring addresses (video playback): an HMAC of the path and its expiry with a key the
 * site generates once and keeps in the database, so every instance signs and checks alike and a
 * restart does not invalidate addresses already handed out.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { settings } from '../../db/schema/index.ts';

const KEY_NAME = 'url_signing_key';
let key: Promise<Buffer> | undefined;

async function loadKey(): Promise<Buffer> {
  const db = getDb();
  await db.insert(settings).values({ key: KEY_NAME, value: randomBytes(32).toString('base64url') }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY_NAME));
  return Buffer.from(row!.value, 'base64url');
}

function signingKey(): Promise<Buffer> {
  key ??= loadKey().catch((error: unknown) => {
    key = undefined;
    throw error;
  });
  return key;
}

const mac = (secret: Buffer, path: string, expires: number) => createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url');

/** `path?exp=…&sig=…`, valid until `expiresAt`. */
export async function signPath(path: string, expiresAt: Date): Promise<string> {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${path}?exp=${expires}&sig=${mac(await signingKey(), path, expires)}`;
}

/** Whether `sig` signs `path` until `exp` (seconds) and that time has not passed. */
export async function verifySignedPath(path: string, exp: string | null, sig: string | null): Promise<boolean> {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
  const expires = Number(exp);
  if (expires * 1000 < Date.now()) return false;
  const expected = Buffer.from(mac(await signingKey(), path, expires));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
