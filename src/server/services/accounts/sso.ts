import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { nicknameProblem, NICKNAME_MAX } from '../../../lib/profile-rules.ts';
import { DEFAULT_LOCALE, type Locale } from '../../../lib/i18n.ts';
import { getConfig } from '../../config.ts';
import { getDb } from '../../db/client.ts';
import { credentials, ssoCodes, users } from '../../db/schema/index.ts';
import { AppError, isAppError } from '../../http/errors.ts';
import { startEmailVerification } from './account-email.ts';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyAgainstDummy, verifyPassword } from '../../lib/passwords.ts';
import { generateCustomUrl } from './profiles.ts';
import { assertUnderRateLimit, hitRateLimit } from '../core/rate-limit.ts';
import { createSession, findSession, invalidateSession } from './sessions.ts';
import { assertSignInHost, safeReturnUrl } from '../../lib/sso-links.ts';

/** Codes handed back on the return address live this long and work once. */
export const SSO_CODE_TTL_MS = 2 * 60 * 1000;

const MINUTE = 60 * 1000;

const email = z.string().trim().toLowerCase().min(1).max(254);
const returnFields = {
  redirect: z.string().max(2000).optional(),
  siteId: z.string().max(64).optional(),
  platform: z.union([z.string().max(16), z.number()]).optional(),
};

/** `POST /sso/api/login` and the sign-in form. */
export const loginSchema = z.object({
  email,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  ...returnFields,
});

/** `POST /sso/api/register` and the sign-up form. */
export const registerSchema = z.object({
  email: email.pipe(z.email()),
  password: z.string().min(1).min(PASSWORD_MIN_LENGTH, 'password_too_short').max(PASSWORD_MAX_LENGTH),
  nickname: z
    .string()
    .max(NICKNAME_MAX * 4)
    .superRefine((value, ctx) => {
      const problem = nicknameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => value.trim()),
  ...returnFields,
});

export type LoginInput = z.output<typeof loginSchema>;
export type RegisterInput = z.output<typeof registerSchema>;

/** Where a request comes from, for rate limits, the session and the return address. */
export interface RequestMeta {
  ip: string;
  userAgent: string;
  requestUrl: URL;
  /** The page language, kept as the member's language for emails at sign-up. */
  locale?: Locale;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

function assertKnownSite(siteId: string | undefined): void {
  if (siteId && siteId !== getConfig().ssoSiteId) throw new AppError('sso_unknown_site');
}

/**
 * The user id of `email` + `password`. An unknown email and a wrong password are the same
 * `invalid_credentials` error and take the same time.
 */
export async function authenticate(emailAddress: string, password: string): Promise<number> {
  const [row] = await getDb()
    .select({ userId: credentials.userId, passwordHash: credentials.passwordHash, suspendedAt: users.suspendedAt })
    .from(credentials)
    .innerJoin(users, eq(users.id, credentials.userId))
    .where(eq(credentials.email, emailAddress.trim().toLowerCase()))
    .limit(1);
  const valid = row ? await verifyPassword(password, row.passwordHash) : await verifyAgainstDummy(password);
  if (!row || !valid) throw new AppError('invalid_credentials');
  // Said only to someone who knows the password: a suspension is not a way to discover accounts.
  if (row.suspendedAt) throw new AppError('account_suspended');
  return row.userId;
}

/**
 * Creates a member with email, password and nickname, and a custom URL derived from the
 * nickname. An email that already has an account is a 409 `email_taken`.
 */
export async function registerAccount(input: { email: string; password: string; nickname: string; locale?: Locale }): Promise<{ userId: number; url: string }> {
  const db = getDb();
  const address = input.email.trim().toLowerCase();
  const [existing] = await db.select({ userId: credentials.userId }).from(credentials).where(eq(credentials.email, address)).limit(1);
  if (existing) throw new AppError('email_taken', { email: 'email_taken' });
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 0; ; attempt += 1) {
    const customUrl = await generateCustomUrl(input.nickname);
    try {
      return await db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values({ customUrl, nickname: input.nickname.trim(), locale: input.locale ?? DEFAULT_LOCALE }).returning({ id: users.id });
        await tx.insert(credentials).values({ userId: user!.id, email: address, passwordHash });
        return { userId: user!.id, url: customUrl };
      });
    } catch (error) {
      const constraint = (error as { cause?: { constraint?: string }; constraint?: string }).cause?.constraint ?? (error as { constraint?: string }).constraint;
      if (constraint === 'credentials_email_key') throw new AppError('email_taken', { email: 'email_taken' });
      // Someone took the same generated URL at the same moment: try another one.
      if (constraint === 'users_custom_url_key' && attempt < 5) continue;
      throw error;
    }
  }
}

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

/**
 * Signs in with email and password and answers the `location` to send the browser to: the
 * allowed return address with a one-time code. Only failures count against the limits (a member
 * signing in again and again is no attacker), in three ways: per account and address
 * (`sso:login:pair`, delays that grow), per account over all addresses and per address over all
 * accounts (`sso:login:email`, `sso:login:ip`, ceilings far above any honest use). So a guesser
 * elsewhere slows only themselves: the owner's right password still gets in from their address.
 */
export async function signIn(input: LoginInput, meta: RequestMeta): Promise<{ location: string }> {
  assertKnownSite(input.siteId);
  assertSignInHost(meta.requestUrl);
  // The address first, so that an account name too long for a key still keeps its own pairs apart.
  const pair = `${meta.ip} ${input.email}`;
  await assertUnderRateLimit('sso:login:pair', pair);
  await assertUnderRateLimit('sso:login:email', input.email);
  await assertUnderRateLimit('sso:login:ip', meta.ip);
  let userId: number;
  try {
    userId = await authenticate(input.email, input.password);
  } catch (error) {
    // Count the failure; a concurrent attempt past the limit still answers the same error.
    if (isAppError(error) && error.errorKey === 'invalid_credentials') {
      await Promise.all([
        hitRateLimit('sso:login:pair', pair).catch(() => undefined),
        hitRateLimit('sso:login:email', input.email).catch(() => undefined),
        hitRateLimit('sso:login:ip', meta.ip).catch(() => undefined),
      ]);
    }
    throw error;
  }
  const code = await issueSsoCode(userId);
  return { location: buildReturnLocation(input.redirect, code, meta.requestUrl) };
}

/**
 * Creates the account (rate-limited) and signs it in: the same `location` answer as `signIn`.
 * When the site can send email, the account starts unconfirmed and a confirmation link is mailed.
 */
export async function signUp(input: RegisterInput, meta: RequestMeta): Promise<{ location: string }> {
  assertKnownSite(input.siteId);
  assertSignInHost(meta.requestUrl);
  await hitRateLimit('sso:register:ip', meta.ip);
  await hitRateLimit('sso:register:email', input.email);
  const { userId } = await registerAccount({ ...input, locale: meta.locale });
  // With SMTP_URL the new member confirms their address before publishing or commenting.
  await startEmailVerification(userId, meta);
  const code = await issueSsoCode(userId);
  return { location: buildReturnLocation(input.redirect, code, meta.requestUrl) };
}

/** Removes used and expired codes (housekeeping). */
export async function deleteStaleSsoCodes(now = new Date()): Promise<void> {
  const hourAgo = new Date(now.getTime() - 60 * MINUTE);
  await getDb()
    .delete(ssoCodes)
    .where(or(lt(ssoCodes.expiresAt, now), lt(ssoCodes.usedAt, hourAgo)));
}
