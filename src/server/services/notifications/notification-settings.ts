/**
 * What each member chooses to hear about, per kind and per channel: the site (a message is
 * created) and email (the daily digest lists it). Kept in `email_preferences`: the digest's three
 * kinds there keep every member's earlier choice, the new kinds start off by email, and every
 * kind starts on for the site.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { getDb, type Executor } from '../../db/client.ts';
import { emailPreferences, NOTIFICATION_KINDS, type MessageKind, type NotificationKind } from '../../db/schema/index.ts';

/** The message kinds each setting covers. */
export const MESSAGE_KINDS_OF: Record<NotificationKind, readonly MessageKind[]> = {
  comments: ['comment'],
  replies: ['reply'],
  stars: ['star'],
  likes: ['like', 'comment_like'],
  // Someone followed you; projects and versions from what you follow.
  follows: ['follow', 'followed_project', 'followed_version'],
  logs: ['followed_log'],
  // Makes of your projects, and makes from what you follow.
  makes: ['make', 'followed_make'],
};

/** The setting a message kind falls under; null for what always arrives (staff messages, report outcomes). */
export function settingOf(kind: MessageKind): NotificationKind | null {
  for (const setting of NOTIFICATION_KINDS) if (MESSAGE_KINDS_OF[setting].includes(kind)) return setting;
  return null;
}

/** One choice per kind and channel. */
export type NotificationSettings = Record<NotificationKind, { site: boolean; email: boolean }>;

const choice = z.object({ site: z.boolean(), email: z.boolean() });
/** `POST /api/user/notificationSettings`: any kinds, each with both channels. */
export const notificationSettingsInput = z.object(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, choice.optional()])) as Record<NotificationKind, z.ZodOptional<typeof choice>>).strict();

/** `userId`'s settings (the defaults when never saved). */
export async function getNotificationSettings(userId: number, db: Executor = getDb()): Promise<NotificationSettings> {
  const [row] = await db.select().from(emailPreferences).where(eq(emailPreferences.userId, userId)).limit(1);
  const off = new Set(row?.siteOff ?? []);
  const email: Record<NotificationKind, string> = row ?? { comments: 'daily', replies: 'daily', stars: 'daily', likes: 'never', follows: 'never', makes: 'never', logs: 'never' };
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, { site: !off.has(kind), email: email[kind] === 'daily' }])) as NotificationSettings;
}

/** Saves the kinds given (the others stay as they were) and answers all of them. */
export async function saveNotificationSettings(userId: number, changes: Partial<NotificationSettings>): Promise<NotificationSettings> {
  return getDb().transaction(async (tx) => {
    const settings = { ...(await getNotificationSettings(userId, tx)), ...changes };
    const values = {
      siteOff: NOTIFICATION_KINDS.filter((kind) => !settings[kind].site),
      ...(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, settings[kind].email ? 'daily' : 'never'])) as Record<NotificationKind, 'daily' | 'never'>),
    };
    await tx.insert(emailPreferences).values({ userId, ...values }).onConflictDoUpdate({ target: emailPreferences.userId, set: values });
    return settings;
  });
}

/**
 * SQL: whether the member `recipient` (a column or value) takes messages of `setting` on the site.
 * Reads their row of `email_preferences` in a subquery, so set-based inserts can filter with it.
 */
export function siteAllowsSql(recipient: AnyPgColumn | SQL, setting: NotificationKind | SQL): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${emailPreferences} WHERE ${emailPreferences.userId} = ${recipient} AND ${setting}::text = ANY(${emailPreferences.siteOff}))`;
}

/** Whether `recipientId` takes messages of `kind` on the site. */
export async function siteAllows(db: Executor, recipientId: number, kind: MessageKind): Promise<boolean> {
  const setting = settingOf(kind);
  if (!setting) return true;
  const [row] = await db.select({ off: emailPreferences.siteOff }).from(emailPreferences).where(eq(emailPreferences.userId, recipientId)).limit(1);
  return !(row?.off ?? []).includes(setting);
}
