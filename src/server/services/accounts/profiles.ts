import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { UserInfo } from '../../../lib/api-types.ts';
import type { Locale } from '../../../lib/i18n.ts';
import {
  BIO_MAX,
  customUrlProblem,
  isWebsiteAllowed,
  LOCATION_MAX,
  nicknameProblem,
  NICKNAME_MAX,
  RESERVED_URLS,
  slugFromNickname,
  WEBSITE_MAX,
} from '../../../lib/profile-rules.ts';
import { getDb } from '../../db/client.ts';
import { userUrlAliases, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { memberProfileColumns, toUserInfo } from './member-projection.ts';
import { newPublicId } from '../../lib/ids.ts';
import { countUnreadMessages, UNREAD_BADGE_LIMIT } from '../notifications/index.ts';
import { findOwnImageUpload } from '../media/index.ts';
import { purgeMemberPages } from '../core/index.ts';

/** Whether `url` is someone's custom URL or a former one that still redirects. */
export async function isCustomUrlTaken(url: string, exceptUserId?: number): Promise<boolean> {
  const db = getDb();
  const [current] = await db.select({ id: users.id }).from(users).where(eq(users.customUrl, url)).limit(1);
  if (current && current.id !== exceptUserId) return true;
  const [alias] = await db.select({ userId: userUrlAliases.userId }).from(userUrlAliases).where(eq(userUrlAliases.url, url)).limit(1);
  return Boolean(alias && alias.userId !== exceptUserId);
}

/**
 * A free custom URL for a new member: the nickname's ASCII slug when it is free and not
 * reserved, else the slug (or `maker` for nicknames without usable ASCII) plus a random suffix.
 */
export async function generateCustomUrl(nickname: string): Promise<string> {
  const slug = slugFromNickname(nickname);
  if (slug && !customUrlProblem(slug) && !(await isCustomUrlTaken(slug))) return slug;
  const base = slug && !RESERVED_URLS.has(slug) ? slug : 'maker';
  for (let length = 4; ; length += 1) {
    const candidate = `${base}-${newPublicId(length)}`;
    if (!customUrlProblem(candidate) && !(await isCustomUrlTaken(candidate))) return candidate;
  }
}

/** `user/getUserInfo`: the signed-in member with their number of unread messages, as the badge counts them. */
export async function getUserInfo(userId: number): Promise<UserInfo> {
  const db = getDb();
  const [[user], unread] = await Promise.all([db.select(memberProfileColumns).from(users).where(eq(users.id, userId)).limit(1), countUnreadMessages(userId, UNREAD_BADGE_LIMIT)]);
  if (!user) throw new AppError('unauthorized');
  return toUserInfo(user, unread);
}

const custom = (problem: string | null, ctx: z.RefinementCtx) => {
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/** `user/edit`: any of the profile fields; absent fields stay as they are. */
export const editProfileSchema = z.object({
  nickname: z
    .string()
    .max(NICKNAME_MAX * 4)
    .superRefine((value, ctx) => custom(nicknameProblem(value), ctx))
    .transform((value) => value.trim())
    .optional(),
  url: z
    .string()
    .max(100)
    .transform((value) => value.trim().toLowerCase())
    .superRefine((value, ctx) => custom(customUrlProblem(value), ctx))
    .optional(),
  bio: z.string().trim().max(BIO_MAX).optional(),
  location: z.string().trim().max(LOCATION_MAX).optional(),
  website: z
    .string()
    .trim()
    .max(WEBSITE_MAX)
    .refine(isWebsiteAllowed, 'website_protocol')
    .optional(),
  /** An upload id (or its URL) of an avatar this member uploaded; null removes the avatar. */
  avatar: z.string().trim().min(1).max(300).nullable().optional(),
});

export type EditProfileInput = z.output<typeof editProfileSchema>;

/**
 * Updates the member's own profile. A new custom URL must be free (a 409 `url_taken` with the
 * field otherwise); the old one is kept as an alias so links to it keep redirecting. The avatar
 * must be an image this member uploaded.
 */
export async function editProfile(userId: number, input: EditProfileInput): Promise<UserInfo> {
  const db = getDb();
  const [current] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!current) throw new AppError('unauthorized');
  const changes: Partial<typeof users.$inferInsert> = {};
  if (input.nickname !== undefined) changes.nickname = input.nickname;
  if (input.bio !== undefined) changes.bio = input.bio;
  if (input.location !== undefined) changes.location = input.location;
  if (input.website !== undefined) changes.website = input.website;
  if (input.avatar !== undefined) {
    if (input.avatar === null) changes.avatar = null;
    else {
      const upload = await findOwnImageUpload(userId, input.avatar, ['avatar']);
      if (!upload) throw new AppError('validation', { avatar: 'upload_invalid' });
      changes.avatar = upload.url;
    }
  }
  const newUrl = input.url !== undefined && input.url !== current.customUrl ? input.url : undefined;
  if (newUrl && (await isCustomUrlTaken(newUrl, userId))) throw new AppError('url_taken', { url: 'url_taken' });

  try {
    await db.transaction(async (tx) => {
      if (newUrl) {
        // Reclaiming one of one's own former URLs: it is no longer an alias.
        await tx.delete(userUrlAliases).where(and(eq(userUrlAliases.url, newUrl), eq(userUrlAliases.userId, userId)));
        await tx.insert(userUrlAliases).values({ url: current.customUrl, userId }).onConflictDoNothing();
        changes.customUrl = newUrl;
      }
      if (Object.keys(changes).length) {
        await tx.update(users).set({ ...changes, updatedAt: new Date() }).where(eq(users.id, userId));
      }
    });
  } catch (error) {
    const constraint = (error as { cause?: { constraint?: string } }).cause?.constraint ?? (error as { constraint?: string }).constraint;
    if (constraint === 'users_custom_url_key') throw new AppError('url_taken', { url: 'url_taken' });
    throw error;
  }
  // Their pages under the old address (now a redirect) and the new, and every card with their name.
  await purgeMemberPages(userId, [current.customUrl]);
  return getUserInfo(userId);
}


/**
 * Remembers the language `userId` chose (the switcher's cookie) for the emails sent to them;
 * called only when it differs from the stored one, so a page view writes nothing.
 */
export async function rememberMemberLocale(userId: number, locale: Locale): Promise<void> {
  await getDb().update(users).set({ locale }).where(eq(users.id, userId));
}
