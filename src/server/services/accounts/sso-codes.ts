/**
 * One-time sign-in codes: what the sign-in form hands back on the return address (and an app to
 * its web view), exchanged once for a session. Apart from the sign-in form (`sso.ts`), so account
 * email (which signs a member in after a reset) and the form both use it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { ssoCodes } from '../../db/schema/index.ts';
import { safeReturnUrl } from '../../lib/sso-links.ts';
import { hitRateLimit } from '../core/index.ts';
import { createSession, findSession, invalidateSession } from './sessions.ts';

/** Codes handed back on the return address live this long and work once. */
export const SSO_CODE_TTL_MS = 2 * 60 * 1000;

const MINUTE = 60 * 1000;

/** Where a request comes from, for rate limits, the session and the return address. */
export interface RequestMeta {
  ip: string;
  userAgent: string;
  requestUrl: URL;
  /** The page language, kept as the member's language for emails at sign-up. */
  locale?: Locale;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** A one-time code for `userId` and when it expires (returned once; stored hashed). */
export async function mintSsoCode(userId: number, now = new Date()): Promise<{ code: string; expiresAt: Date }> {
  const code = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SSO_CODE_TTL_MS);
  await getDb().insert(ssoCodes).values({ codeHash: hashCode(code), userId, expiresAt });
  return { code, expiresAt };
}

/** A one-time code for `userId` (returned once; stored hashed, expiring in two minutes). */
export async function issueSsoCode(userId: number, now = new Date()): Promise<string> {
  return (await mintSsoCode(userId, now)).code;
}

/**
 * `POST /api/sso/webviewCode`: an app signed in with its token asks for a code to open a page of
 * the site in a web view (`/video/player?id=…&code=…`). The web view then gets a session of its
 * own from the code; the app's 30-day token never appears in an address.
 */
export async function issueWebviewCode(userId: number): Promise<{ code: string; expiresAt: string }> {
  await hitRateLimit('sso:webview-code:user', userId);
  const { code, expiresAt } = await mintSsoCode(userId);
  return { code, expiresAt: expiresAt.toISOString() };
}

/** Marks a valid, unused, unexpired code used and answers its user id; anything else is null. */
export async function consumeSsoCode(code: string | null | undefined, now = new Date()): Promise<number | null> {
  if (!code || code.length > 200) return null;
  const [row] = await getDb()
    .update(ssoCodes)
    .set({ usedAt: now })
    .where(and(eq(ssoCodes.codeHash, hashCode(code)), isNull(ssoCodes.usedAt), gt(ssoCodes.expiresAt, now)))
    .returning({ userId: ssoCodes.userId });
  return row?.userId ?? null;
}

/** Exchanges a code for a new session (what the site does when a browser opens `location`). */
export async function exchangeSsoCode(code: string | null | undefined, userAgent = ''): Promise<{ token: string; expiresAt: Date } | null> {
  const userId = await consumeSsoCode(code);
  if (userId === null) return null;
  return createSession(userId, userAgent);
}

/**
 * A browser opening a page with `?code=`: the session to set as its cookie, or null when nothing
 * changes. The code is used up either way. A browser signed in as another member keeps that
 * member's session: a link must never silently switch whose account someone is using. The same
 * member gets a fresh session in place of the old one.
 */
export async function exchangeSsoCodeInBrowser(
  code: string | null | undefined,
  currentToken: string | null | undefined,
  userAgent = '',
): Promise<{ token: string; expiresAt: Date } | null> {
  const userId = await consumeSsoCode(code);
  if (userId === null) return null;
  const current = currentToken ? await findSession(currentToken) : null;
  if (current && current.user.id !== userId) return null;
  const session = await createSession(userId, userAgent);
  if (currentToken) await invalidateSession(currentToken);
  return session;
}

/** The return address with the code: where the browser goes after signing in. */
export function buildReturnLocation(redirect: string | undefined, code: string, requestUrl: URL): string {
  const target = safeReturnUrl(redirect, requestUrl);
  target.searchParams.set('code', code);
  return target.toString();
}

/** Removes used and expired codes (housekeeping). */
export async function deleteStaleSsoCodes(now = new Date()): Promise<void> {
  const hourAgo = new Date(now.getTime() - 60 * MINUTE);
  await getDb()
    .delete(ssoCodes)
    .where(or(lt(ssoCodes.expiresAt, now), lt(ssoCodes.usedAt, hourAgo)));
}
