/**
 * The daily notification digest and the settings behind it. Each member chooses per kind
 * (`NOTIFICATION_KINDS`: comments on their projects, replies, stars, likes, follows, makes, logs)
 * between a daily email and none; `user/emailSettings` still reads and writes the first three. The job
 * collects the unread messages of the enabled kinds since the member's last digest and sends one
 * mail per member; a member gets at most one digest a day however often the job runs.
 */
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { userPath } from '../../../lib/paths.ts';
import { getConfig } from '../../config.ts';
import { getDb } from '../../db/client.ts';
import { credentials, DIGEST_FREQUENCIES, emailPreferences, messages, NOTIFICATION_KINDS, projects, users, type DigestFrequency, type NotificationKind } from '../../db/schema/index.ts';
import { MESSAGE_KINDS_OF } from './notification-settings.ts';
import { digestMail, type DigestLine } from '../../mail/templates.ts';
import { canSendMail, sendMail } from '../core/index.ts';

/** The kinds a digest may tell about, with the message kind each stands for. */
const DIGEST_KINDS = { comments: 'comment', replies: 'reply', stars: 'star' } as const;
export type DigestKind = keyof typeof DIGEST_KINDS;

export type EmailSettings = Record<DigestKind, DigestFrequency>;

/** Each kind by email when a member never chose (the columns' defaults): the first three daily, the rest off. */
const DIGEST_DEFAULTS: Record<NotificationKind, DigestFrequency> = { comments: 'daily', replies: 'daily', stars: 'daily', likes: 'never', follows: 'never', makes: 'never', logs: 'never' };

const frequency = z.enum(DIGEST_FREQUENCIES);
/** `POST /api/user/emailSettings`. */
export const emailSettingsSchema = z.object({ comments: frequency, replies: frequency, stars: frequency });

/** A digest lists at most this many lines; the link to the messages shows the rest. */
const DIGEST_MAX_LINES = 50;
const DAY = 24 * 60 * 60 * 1000;

/** `userId`'s notification email settings (the defaults when never saved). */
export async function getEmailSettings(userId: number): Promise<EmailSettings> {
  const [row] = await getDb()
    .select({ comments: emailPreferences.comments, replies: emailPreferences.replies, stars: emailPreferences.stars })
    .from(emailPreferences)
    .where(eq(emailPreferences.userId, userId))
    .limit(1);
  return row ?? { comments: 'daily', replies: 'daily', stars: 'daily' };
}

/** Saves `userId`'s notification email settings and answers them. */
export async function setEmailSettings(userId: number, settings: EmailSettings): Promise<EmailSettings> {
  await getDb()
    .insert(emailPreferences)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: emailPreferences.userId, set: settings });
  return settings;
}

/** What the profile's email section shows: the address, whether it is confirmed, and the digest settings. */
export interface AccountEmail extends EmailSettings {
  email: string;
  emailVerified: boolean;
  mailEnabled: boolean;
}

/** `GET /api/user/emailSettings`. */
export async function getAccountEmail(userId: number): Promise<AccountEmail> {
  const [[row], settings] = await Promise.all([
    getDb().select({ email: credentials.email, verified: credentials.emailVerified }).from(credentials).where(eq(credentials.userId, userId)).limit(1),
    getEmailSettings(userId),
  ]);
  const mailEnabled = canSendMail();
  return { email: row?.email ?? '', emailVerified: !mailEnabled || (row?.verified ?? true), mailEnabled, ...settings };
}

/** `POST /api/user/emailSettings`: saves the kinds given, keeps the others. */
export async function saveAccountEmailSettings(userId: number, changes: Partial<EmailSettings>): Promise<AccountEmail> {
  await setEmailSettings(userId, { ...(await getEmailSettings(userId)), ...changes });
  return getAccountEmail(userId);
}

/** Today in UTC as `YYYY-MM-DD`: the unit the digest is sent once per. */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** The site's address for links in a mail no request asked for. */
function digestOrigin(): string {
  const config = getConfig();
  return config.siteUrl ?? `http://${config.allowedHosts[0] ?? `localhost:${config.port}`}`;
}

/**
 * Sends today's digests: one mail per member with unread messages of the kinds they enabled
 * since their last digest (or the last day, for a first one). Answers how many mails went out
 * (logged ones included). Running it twice a day sends nothing the second time.
 */
export async function sendDailyDigests(now = new Date()): Promise<{ mailed: number }> {
  const db = getDb();
  const today = dayOf(now);
  const actor = alias(users, 'actor');
  const since = sql`coalesce(${emailPreferences.lastDigestAt}, ${new Date(now.getTime() - DAY)})`;
  // Each kind as the member chose (`MESSAGE_KINDS_OF`); no row: the defaults of the table.
  const enabled = or(
    ...NOTIFICATION_KINDS.map((setting) =>
      and(
        inArray(messages.kind, [...MESSAGE_KINDS_OF[setting]]),
        sql`coalesce(${emailPreferences[setting]}, ${DIGEST_DEFAULTS[setting]}) = 'daily'`,
      ),
    ),
  );
  const rows = await db
    .select({
      userId: messages.recipientId,
      kind: messages.kind,
      actor: actor.nickname,
      project: projects.title,
    })
    .from(messages)
    .innerJoin(credentials, eq(credentials.userId, messages.recipientId))
    .leftJoin(emailPreferences, eq(emailPreferences.userId, messages.recipientId))
    .leftJoin(actor, eq(actor.id, messages.actorId))
    .leftJoin(projects, eq(projects.id, messages.projectId))
    .where(
      and(
        isNull(messages.readAt),
        enabled,
        gt(messages.createdAt, since),
        or(isNull(emailPreferences.lastDigestOn), sql`${emailPreferences.lastDigestOn} < ${today}`),
      ),
    )
    .orderBy(messages.recipientId, messages.createdAt);

  const byMember = new Map<number, DigestLine[]>();
  for (const row of rows) {
    const lines = byMember.get(row.userId) ?? [];
    if (lines.length < DIGEST_MAX_LINES) lines.push({ kind: row.kind, actor: row.actor ?? '—', project: row.project ?? '—' });
    byMember.set(row.userId, lines);
  }

  let mailed = 0;
  for (const [userId, lines] of byMember) {
    // Claim today's digest first: a second run (or a retried job) finds it taken and sends nothing.
    const [previous] = await db.select({ on: emailPreferences.lastDigestOn, at: emailPreferences.lastDigestAt }).from(emailPreferences).where(eq(emailPreferences.userId, userId)).limit(1);
    const claimed = await db
      .insert(emailPreferences)
      .values({ userId, lastDigestOn: today, lastDigestAt: now })
      .onConflictDoUpdate({
        target: emailPreferences.userId,
        set: { lastDigestOn: today, lastDigestAt: now },
        setWhere: or(isNull(emailPreferences.lastDigestOn), sql`${emailPreferences.lastDigestOn} < ${today}`),
      })
      .returning({ userId: emailPreferences.userId });
    if (claimed.length === 0) continue;
    const [member] = await db
      .select({ nickname: users.nickname, url: users.customUrl, locale: users.locale, email: credentials.email })
      .from(users)
      .innerJoin(credentials, eq(credentials.userId, users.id))
      .where(eq(users.id, userId))
      .limit(1);
    if (!member) continue;
    const origin = digestOrigin();
    try {
      await sendMail(
        member.email,
        digestMail(member.locale, {
          nickname: member.nickname,
          lines,
          messagesLink: new URL(userPath(member.url, 'message'), origin).toString(),
          settingsLink: new URL(userPath(member.url, 'profile'), origin).toString(),
        }),
      );
      mailed += 1;
    } catch (error) {
      // Not sent: give the day back so the retried job tries this member again.
      await db.update(emailPreferences).set({ lastDigestOn: previous?.on ?? null, lastDigestAt: previous?.at ?? null }).where(eq(emailPreferences.userId, userId));
      throw error;
    }
  }
  return { mailed };
}
