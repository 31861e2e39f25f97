import { and, count, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { drafts } from '../db/schema/index.ts';
import { findUserByUrl, type PublicUser } from '../services/users.ts';
import type { SessionUser } from '../services/sessions.ts';

export type UserTab = 'projects' | 'stars' | 'video' | 'message' | 'profile' | 'draftbox';

export interface UserPageContext {
  profile: PublicUser;
  isOwner: boolean;
  /** The owner's number of drafts (shown only to them). */
  draftCount: number;
}

/**
 * The profile every `/user/{url}` tab shows in its banner. A former custom URL answers
 * `{ redirect }` to the same tab under the current one.
 */
export async function loadUserContext(
  url: string,
  viewer: SessionUser | null,
): Promise<UserPageContext | { redirect: string }> {
  const found = await findUserByUrl(url);
  if ('movedTo' in found) return { redirect: found.movedTo };
  const isOwner = viewer?.id === found.user.id;
  let draftCount = 0;
  if (isOwner) {
    const [row] = await getDb().select({ n: count() }).from(drafts).where(and(eq(drafts.ownerId, found.user.id)));
    draftCount = row?.n ?? 0;
  }
  return { profile: found.user, isOwner, draftCount };
}
