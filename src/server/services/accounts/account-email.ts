/**
 * Account email: confirming the address at sign-up, "forgot password", and moving to a new
 * address. Requests only enqueue a mail job (`jobs/kinds/mail.ts`); the job mints the link's token, so a
 * usable token exists only in the mail and, hashed, in `email_tokens`. Every token works once and
 * until it expires; asking again replaces the member's earlier unused token of that purpose.
 */
import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { DEFAULT_LOCALE } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { credentials, emailTokens, sessions, users, type EmailTokenPurpose } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { sendJob } from '../../jobs/queue.ts';
import { changeEmailMail, resetPasswordMail, verifyEmailMail, type MailMessage } from '../../mail/templates.ts';
import { canSendMail, sendMail, hitRateLimit } from '../core/index.ts';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyAgainstDummy, verifyPassword } from '../../lib/passwords.ts';
import { siteOrigin } from '../../lib/sso-links.ts';
import { generateToken } from '../../lib/tokens.ts';
import { buildReturnLocation, issueSsoCode, type RequestMeta } from './sso-codes.ts';

const HOUR = 60 * 60 * 1000;

/** How long each kind of link works: a reset link is the most dangerous in a stolen inbox, so the shortest. */
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = { verify: 48 * HOUR, reset: 1 * HOUR, change_email: 24 * HOUR };

const email = z.string().trim().toLowerCase().min(1).max(254);
const token = z.string().trim().min(1).max(200);

/** `POST /sso/api/forgot`. */
export const forgotSchema = z.object({ email: email.pipe(z.email()) });
/** `POST /sso/api/reset`. */
export const resetSchema = z.object({
  token,
  password: z.string().min(1).min(PASSWORD_MIN_LENGTH, 'password_too_short').max(PASSWORD_MAX_LENGTH),
  redirect: z.string().max(2000).optional(),
});
/** `POST /sso/api/verify`. */
export const verifySchema = z.object({ token });
/** `POST /api/user/changeEmail`: the new address, and the password to prove it is the member asking. */
export const changeEmailSchema = z.object({ email: email.pipe(z.email()), password: z.string().min(1).max(PASSWORD_MAX_LENGTH) });

/** What a mail job carries: never a token, only what the job needs to mint one. */
export const mailJobSchema = z.object({
  purpose: z.enum(['verify', 'reset', 'change_email']),
  userId: z.number().int().positive(),
  origin: z.url(),
  newEmail: z.string().max(254).optional(),
});
export type MailJob = z.output<typeof mailJobSchema>;

const hashEmailToken = (value: string) => createHash('sha256').update(value).digest('hex');

/** The origin links in emails point to: `SITE_URL`, else the site's own host as the request named it. */
function linkOrigin(meta: RequestMeta): string {
  return siteOrigin(meta.requestUrl);
}

/**
 * Queues one account email; a second request of the same purpose (and new address) while one
 * waits sends one mail. A different new address is a mail of its own, whose link replaces the first.
 */
export async function enqueueAccountMail(job: MailJob): Promise<void> {
  await sendJob('mail', job, [job.purpose, job.userId, job.newEmail ?? ''].join(':'));
}

/** A fresh token for `userId`; the member's earlier unused tokens of this purpose stop working. */
export async function mintEmailToken(userId: number, purpose: EmailTokenPurpose, newEmail: string | null = null, now = new Date()): Promise<string> {
  const value = generateToken();
  await getDb().transaction(async (tx) => {
    await tx.delete(emailTokens).where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
    await tx.insert(emailTokens).values({ purpose, tokenHash: hashEmailToken(value), userId, newEmail, expiresAt: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[purpose]) });
  });
  return value;
}

/**
 * `POST /sso/api/forgot`: mails a reset link when `email` has an account. The answer, its status
 * and the limits are the same for an unknown address, so the form tells nobody who has an account.
 */
export async function requestPasswordReset(input: z.output<typeof forgotSchema>, meta: RequestMeta): Promise<{ sent: true }> {
  await hitRateLimit('mail:forgot:ip', meta.ip);
  await hitRateLimit('mail:forgot:email', input.email);
  const [row] = await getDb().select({ userId: credentials.userId }).from(credentials).where(eq(credentials.email, input.email)).limit(1);
  if (row) await enqueueAccountMail({ purpose: 'reset', userId: row.userId, origin: linkOrigin(meta) });
  return { sent: true };
}

/**
 * `POST /sso/api/reset`: sets a new password with a reset token, ends every session of the
 * member (whoever knew the old password is out), counts the address as confirmed (the mail
 * reached it), and signs in afresh: the same `{ location }` answer as sign-in.
 */
export async function resetPassword(input: z.output<typeof resetSchema>, meta: RequestMeta): Promise<{ location: string }> {
  await hitRateLimit('mail:token:ip', meta.ip);
  const passwordHash = await hashPassword(input.password);
  const userId = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailTokens.tokenHash, hashEmailToken(input.token)), eq(emailTokens.purpose, 'reset'), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date())))
      .returning({ userId: emailTokens.userId });
    if (!row) throw new AppError('token_invalid');
    await tx.update(credentials).set({ passwordHash, emailVerified: true }).where(eq(credentials.userId, row.userId));
    await tx.delete(sessions).where(eq(sessions.userId, row.userId));
    return row.userId;
  });
  const code = await issueSsoCode(userId);
  return { location: buildReturnLocation(input.redirect, code, meta.requestUrl) };
}

/**
 * `POST /sso/api/verify`: a confirmation link. A sign-up's confirms the address; a change of
 * address's moves the account to the new one (which the link proved the member reads). Answers
 * what was confirmed.
 */
export async function confirmEmailToken(input: z.output<typeof verifySchema>, meta: RequestMeta): Promise<{ purpose: 'verify' | 'change_email'; email: string }> {
  await hitRateLimit('mail:token:ip', meta.ip);
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailTokens.tokenHash, hashEmailToken(input.token)), inArray(emailTokens.purpose, ['verify', 'change_email']), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date())))
      .returning({ userId: emailTokens.userId, purpose: emailTokens.purpose, newEmail: emailTokens.newEmail });
    if (!row) throw new AppError('token_invalid');
    if (row.purpose === 'change_email' && row.newEmail) {
      const [taken] = await tx.select({ userId: credentials.userId }).from(credentials).where(eq(credentials.email, row.newEmail)).limit(1);
      if (taken && taken.userId !== row.userId) throw new AppError('email_taken');
      await tx.update(credentials).set({ email: row.newEmail, emailVerified: true }).where(eq(credentials.userId, row.userId));
      return { purpose: 'change_email' as const, email: row.newEmail };
    }
    const [updated] = await tx.update(credentials).set({ emailVerified: true }).where(eq(credentials.userId, row.userId)).returning({ email: credentials.email });
    return { purpose: 'verify' as const, email: updated?.email ?? '' };
  });
}

/** Whether `userId` still has to confirm their address (only ever while the site can send email). */
export async function isEmailUnverified(userId: number): Promise<boolean> {
  if (!canSendMail()) return false;
  const [row] = await getDb().select({ verified: credentials.emailVerified }).from(credentials).where(eq(credentials.userId, userId)).limit(1);
  return row ? !row.verified : false;
}

/**
 * Refuses (403 `email_not_verified`) publishing, commenting and replying by a member who has
 * not confirmed their address yet. Without `SMTP_URL` nobody is asked to confirm, so nobody is refused.
 */
export async function assertEmailVerified(userId: number): Promise<void> {
  if (await isEmailUnverified(userId)) throw new AppError('email_not_verified');
}

/** Marks a new account unconfirmed and mails the link, when the site can send email. */
export async function startEmailVerification(userId: number, meta: RequestMeta): Promise<void> {
  if (!canSendMail()) return;
  await getDb().update(credentials).set({ emailVerified: false }).where(eq(credentials.userId, userId));
  await enqueueAccountMail({ purpose: 'verify', userId, origin: linkOrigin(meta) });
}

/** `POST /api/user/resendVerification`: the confirmation link again, for an unconfirmed member. */
export async function resendVerification(userId: number, meta: RequestMeta): Promise<{ sent: boolean }> {
  await hitRateLimit('mail:verify:user', userId);
  if (!(await isEmailUnverified(userId))) return { sent: false };
  await enqueueAccountMail({ purpose: 'verify', userId, origin: linkOrigin(meta) });
  return { sent: true };
}

/**
 * `POST /api/user/changeEmail`: mails a confirmation link to the new address; the account moves
 * there only when it is opened. The member's password is asked for, so an open session alone
 * cannot hand the account to another address.
 */
export async function requestEmailChange(userId: number, input: z.output<typeof changeEmailSchema>, meta: RequestMeta): Promise<{ sent: true; email: string }> {
  await hitRateLimit('mail:change:user', userId);
  const [row] = await getDb().select({ email: credentials.email, passwordHash: credentials.passwordHash }).from(credentials).where(eq(credentials.userId, userId)).limit(1);
  const valid = row ? await verifyPassword(input.password, row.passwordHash) : await verifyAgainstDummy(input.password);
  if (!row || !valid) throw new AppError('invalid_credentials', { password: 'wrong_password' });
  if (row.email === input.email) throw new AppError('validation', { email: 'email_unchanged' });
  const [taken] = await getDb().select({ userId: credentials.userId }).from(credentials).where(eq(credentials.email, input.email)).limit(1);
  if (taken) throw new AppError('email_taken', { email: 'email_taken' });
  await enqueueAccountMail({ purpose: 'change_email', userId, origin: linkOrigin(meta), newEmail: input.email });
  return { sent: true, email: input.email };
}

/** The mail of one job: the token minted now, the link on the job's origin, in the member's language. */
async function composeAccountMail(job: MailJob): Promise<{ to: string; message: MailMessage } | null> {
  const [member] = await getDb()
    .select({ nickname: users.nickname, locale: users.locale, email: credentials.email, verified: credentials.emailVerified })
    .from(users)
    .innerJoin(credentials, eq(credentials.userId, users.id))
    .where(eq(users.id, job.userId))
    .limit(1);
  if (!member) return null;
  const locale = member.locale || DEFAULT_LOCALE;
  const hours = EMAIL_TOKEN_TTL_MS[job.purpose] / HOUR;
  if (job.purpose === 'verify') {
    // Confirmed in the meantime (another link, a reset): nothing to send.
    if (member.verified) return null;
    const link = new URL(`/sso/verify?token=${await mintEmailToken(job.userId, 'verify')}`, job.origin).toString();
    return { to: member.email, message: verifyEmailMail(locale, { nickname: member.nickname, link, hours }) };
  }
  if (job.purpose === 'reset') {
    const link = new URL(`/sso/reset?token=${await mintEmailToken(job.userId, 'reset')}`, job.origin).toString();
    return { to: member.email, message: resetPasswordMail(locale, { nickname: member.nickname, link, hours }) };
  }
  if (!job.newEmail) return null;
  const link = new URL(`/sso/verify?token=${await mintEmailToken(job.userId, 'change_email', job.newEmail)}`, job.origin).toString();
  return { to: job.newEmail, message: changeEmailMail(locale, { nickname: member.nickname, link, hours, email: job.newEmail }) };
}

/**
 * Runs one mail job (its payload already read with `mailJobSchema` by the queue): composes and
 * sends (or logs) it. Answers whether a mail was sent, for tests and logs.
 */
export async function processMailJob(job: MailJob): Promise<{ to: string; sent: boolean } | null> {
  const mail = await composeAccountMail(job);
  if (!mail) return null;
  const { sent } = await sendMail(mail.to, mail.message);
  return { to: mail.to, sent };
}

/** Removes used and expired tokens (housekeeping). */
export async function deleteStaleEmailTokens(now = new Date()): Promise<void> {
  await getDb().delete(emailTokens).where(or(lt(emailTokens.expiresAt, now), isNotNull(emailTokens.usedAt)));
}
