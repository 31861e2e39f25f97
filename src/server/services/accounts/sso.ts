import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { nicknameProblem, NICKNAME_MAX } from '../../../lib/profile-rules.ts';
import { DEFAULT_LOCALE, type Locale } from '../../../lib/i18n.ts';
import { getConfig } from '../../config.ts';
import { getDb } from '../../db/client.ts';
import { credentials, users } from '../../db/schema/index.ts';
import { AppError, isAppError } from '../../http/errors.ts';
import { startEmailVerification } from './account-email.ts';
import { buildReturnLocation, issueSsoCode, type RequestMeta } from './sso-codes.ts';
import { invalidateSession } from './sessions.ts';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyAgainstDummy, verifyPassword } from '../../lib/passwords.ts';
import { generateCustomUrl } from './profiles.ts';
import { assertUnderRateLimit, hitRateLimit } from '../core/index.ts';
import { assertSignInHost } from '../../lib/sso-links.ts';


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

/**
 * Signs in with email and password and answers the `location` to send the browser to: the
 * allowed return address with a one-time code. Only failures count against the limits (a member
 * signing in again and again is no attacker), in three ways: per account and address
 * (`sso:login:pair`, delays that grow), per account over all addresses and per address over all
 * accounts (`sso:login:email`, `sso:login:ip`, ceilings far above any honest use). So a guesser
 * elsewhere slows only themselves: the owner's right password still gets in from their address.
 */
export async function signIn(input: LoginInput, meta: RequestMeta, previousToken?: string | null): Promise<{ location: string }> {
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
  await endPreviousSession(previousToken);
  const code = await issueSsoCode(userId);
  return { location: buildReturnLocation(input.redirect, code, meta.requestUrl) };
}

/**
 * Signing in (or up) through the form is signing in: the session the browser had before, whoever
 * it was, ends here, and opening the answered `location` starts the new one. (A `?code=` link
 * opened unasked keeps another member's session: `exchangeSsoCodeInBrowser`.)
 */
async function endPreviousSession(token: string | null | undefined): Promise<void> {
  if (token) await invalidateSession(token);
}

/**
 * Creates the account (rate-limited) and signs it in: the same `location` answer as `signIn`.
 * When the site can send email, the account starts unconfirmed and a confirmation link is mailed.
 */
export async function signUp(input: RegisterInput, meta: RequestMeta, previousToken?: string | null): Promise<{ location: string }> {
  assertKnownSite(input.siteId);
  assertSignInHost(meta.requestUrl);
  await hitRateLimit('sso:register:ip', meta.ip);
  await hitRateLimit('sso:register:email', input.email);
  const { userId } = await registerAccount({ ...input, locale: meta.locale });
  // With SMTP_URL the new member confirms their address before publishing or commenting.
  await startEmailVerification(userId, meta);
  await endPreviousSession(previousToken);
  const code = await issueSsoCode(userId);
  return { location: buildReturnLocation(input.redirect, code, meta.requestUrl) };
}
