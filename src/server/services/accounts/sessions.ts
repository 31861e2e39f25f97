import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { UserInfo } from '../../../lib/api-types.ts';
import { getDb } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { credentials, sessions, users } from '../../db/schema/index.ts';
import { unreadCountSql } from '../notifications/index.ts';
import type { UserRole } from '../../db/schema/index.ts';
import { generateToken, hashToken } from '../../lib/tokens.ts';
import { memberProfileColumns, toUserInfo } from './member-projection.ts';

/** Sessions last 30 days and are extended when used in their second half. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** The signed-in user as the server sees it on every request. */
export interface SessionUser {
  id: number;
  url: string;
  nickname: string;
  avatar: string | null;
  /** What they may do (`src/server/services/accounts/roles.ts`), read with the session on every request. */
  role: UserRole;
}

/** Creates a session for `userId` and returns its token (shown once, stored hashed). */
export async function createSession(userId: number, userAgent = ''): Promise<{ token: string; expiresAt: Date }> {
  const token = generateToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await getDb()
    .insert(sessions)
    .values({ tokenHash: hashToken(token), userId, expiresAt, userAgent: userAgent.slice(0, 300) });
  return { token, expiresAt };
}

/** The user of a valid, unexpired token, or null. Extends sessions past half their life. */
export async function validateSessionToken(token: string | null | undefined): Promise<SessionUser | null> {
  return (await findSession(token))?.user ?? null;
}

/** Read on every signed-in request: built once (see `prepared`). */
const sessionByToken = prepared('session_by_token', (db, name) =>
  db
    .select({
      ...memberProfileColumns,
      role: users.role,
      locale: users.locale,
      createdAt: users.createdAt,
      unreadMessages: unreadCountSql(users.id),
      expiresAt: sessions.expiresAt,
      // For the page cache (`findMemberPageState`): any change to the member's own row (name,
      // avatar, role, language) gives it a new row version; and whether their address is confirmed.
      rowVersion: sql<string>`${users}.xmin::text`,
      emailVerified: credentials.emailVerified,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(credentials, eq(credentials.userId, users.id))
    // A suspended member's sessions are deleted on suspension; this keeps any made since from counting.
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql.placeholder('now')), isNull(users.suspendedAt)))
    .limit(1)
    .prepare(name),
);

/** A valid session as `findSession` answers it. */
export interface FoundSession {
  user: SessionUser;
  viewer: UserInfo;
  expiresAt: Date;
  locale: string;
}

/**
 * A valid session with its user, what the page header shows of them (`viewer`: the profile and
 * the unread count up to `UNREAD_BADGE_LIMIT`, read in the same statement so a signed-in page pays
 * one query for both, through `messages_unread_idx`), and its expiry, and the language their
 * emails are written in; or null.
 */
export async function findSession(token: string | null | undefined): Promise<FoundSession | null> {
  if (!token || token.length > 200) return null;
  const db = getDb();
  const tokenHash = hashToken(token);
  const [row] = await sessionByToken().execute({ tokenHash, now: new Date().toISOString() });
  if (!row) return null;
  let expiresAt = row.expiresAt;
  if (expiresAt.getTime() - Date.now() < SESSION_TTL_MS / 2) {
    expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await db.update(sessions).set({ expiresAt, lastSeenAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
  }
  return foundSession(row, expiresAt);
}

function foundSession(row: SessionRow, expiresAt: Date): FoundSession {
  const user: SessionUser = { id: row.id, url: row.url, nickname: row.nickname, avatar: row.avatar, role: row.role };
  return { user, viewer: toUserInfo(row, Number(row.unreadMessages)), expiresAt, locale: row.locale };
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionByToken>['execute']>>[number];

/**
 * The member of a valid session and a fingerprint of what their places on a page show of their
 * own state besides their own writes (which the page cache hears of by their purge): their row
 * (profile, role, language), whether their address is confirmed and the unread count in the
 * header. Null for no valid session, and for one that is due to be extended (the full render
 * extends it and sends the cookie again). Read by the page cache before it reuses a member's page;
 * the session itself goes on to the render of their places, which so reads it no second time.
 */
export async function findMemberPageState(token: string | null | undefined): Promise<{ userId: number; fingerprint: string; session: FoundSession } | null> {
  if (!token || token.length > 200) return null;
  const [row] = await sessionByToken().execute({ tokenHash: hashToken(token), now: new Date().toISOString() });
  if (!row || row.expiresAt.getTime() - Date.now() < SESSION_TTL_MS / 2) return null;
  return { userId: row.id, fingerprint: `${row.rowVersion}.${row.emailVerified === false ? 0 : 1}.${Number(row.unreadMessages)}`, session: foundSession(row, row.expiresAt) };
}

/** Revokes one session. */
export async function invalidateSession(token: string): Promise<void> {
  await getDb().delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Removes expired sessions (called from the server's housekeeping timer). */
export async function deleteExpiredSessions(): Promise<void> {
  await getDb().delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
