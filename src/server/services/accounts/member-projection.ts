/**
 * What the site reads of a member, written once: the columns of a member reference (a collection's
 * owner, a session's user) and of a profile, and how a row of them becomes the API's
 * `UserProfile`/`UserInfo`. Sessions, the member's own info, public member pages and members'
 * collections all read members through these, so a field added to the profile is added here.
 */
import type { UserInfo, UserProfile } from '../../../lib/api-types.ts';
import { users } from '../../db/schema/index.ts';

/** Who a member is wherever they are named: id, address, name and picture. */
export const memberRefColumns = {
  id: users.id,
  url: users.customUrl,
  nickname: users.nickname,
  avatar: users.avatar,
};

/** A member's profile: the reference and what they wrote about themselves. */
export const memberProfileColumns = {
  ...memberRefColumns,
  bio: users.bio,
  location: users.location,
  website: users.website,
  createdAt: users.createdAt,
};

/** A row read with `memberProfileColumns`. */
export type MemberProfileRow = Pick<typeof users.$inferSelect, 'id' | 'nickname' | 'avatar' | 'bio' | 'location' | 'website' | 'createdAt'> & { url: (typeof users.$inferSelect)['customUrl'] };

/** The profile as every user endpoint answers it. */
export function toUserProfile(row: MemberProfileRow): UserProfile {
  return {
    id: row.id,
    url: row.url,
    nickname: row.nickname,
    avatar: row.avatar,
    bio: row.bio,
    location: row.location,
    website: row.website,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The signed-in member as `user/getUserInfo` answers: their profile and unread messages. */
export function toUserInfo(row: MemberProfileRow, unreadMessages: number): UserInfo {
  return { ...toUserProfile(row), unreadMessages };
}
