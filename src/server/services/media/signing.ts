/**
 * Signed, expiring addresses (video playback): an HMAC of the path, its expiry and an optional
 * scope (what more the address allows, such as playing a hidden video) with a key the site
 * generates once and keeps in the database, so every instance signs and checks alike and a
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

/**
 * The signed text: the path and its expiry, and the scope when there is one. An address without a
 * scope is signed exactly as before scopes existed, so addresses already handed out (valid for
 * hours) keep working as unscoped ones; a scope is part of the signed text, so it can be neither
 * added to an address nor taken off one (either way the signature no longer matches).
 */
const mac = (secret: Buffer, path: string, expires: number, scope: string | null) =>
  createHmac('sha256', secret)
    .update(scope === null ? `${path}\n${expires}` : `${path}\n${expires}\n${scope}`)
    .digest('base64url');

const SCOPE = /^[a-z]{1,16}$/;

/** `path?exp=…&sig=…` (and `&scope=…` when given), valid until `expiresAt`. */
export async function signPath(path: string, expiresAt: Date, scope: string | null = null): Promise<string> {
  if (scope !== null && !SCOPE.test(scope)) throw new Error(`Not a scope: ${scope}`);
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${path}?exp=${expires}&sig=${mac(await signingKey(), path, expires, scope)}${scope === null ? '' : `&scope=${scope}`}`;
}

/** Whether `sig` signs `path` until `exp` (seconds) with `scope` (null: none), and that time has not passed. */
export async function verifySignedPath(path: string, exp: string | null, sig: string | null, scope: string | null = null): Promise<boolean> {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || (scope !== null && !SCOPE.test(scope))) return false;
  const expires = Number(exp);
  if (expires * 1000 < Date.now()) return false;
  const expected = Buffer.from(mac(await signingKey(), path, expires, scope));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
