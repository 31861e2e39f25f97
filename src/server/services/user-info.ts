import { eq } from 'drizzle-orm';
import type { UserInfo } from '../../lib/api-types.ts';
import { getDb } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';
import { countUnreadMessages } from './messages.ts';

/** `user/getUserInfo`: the signed-in user's own profile and unread message count. */
export async function getUserInfo(userId: number): Promise<UserInfo> {
  const [[row], unreadMessages] = await Promise.all([
    getDb().select().from(users).where(eq(users.id, userId)).limit(1),
    countUnreadMessages(userId),
  ]);
  if (!row) throw new AppError('unauthorized', 401);
  return {
    id: row.id,
    url: row.customUrl,
    nickname: row.nickname,
    avatar: row.avatar,
    bio: row.bio,
    location: row.location,
    website: row.website,
    createdAt: row.createdAt.toISOString(),
    unreadMessages,
  };
}
