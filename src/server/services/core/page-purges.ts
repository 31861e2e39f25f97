/**
 * What each kind of write changes on the public pages, as page-cache purges. Called once the
 * write has committed; a failure here is logged, never the write's failure (the cached pages
 * then grow old within the cache's freshness instead).
 */
import { eq, inArray } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { projects, users } from '../../db/schema/index.ts';
import { pageTags, purgePages } from '../../page-cache/tags.ts';
import { log } from '../../log.ts';

async function memberUrls(userIds: number[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await getDb().select({ url: users.customUrl }).from(users).where(inArray(users.id, userIds));
  return rows.map((row) => row.url);
}

function purgeQuietly(tags: Promise<string[]>): Promise<void> {
  return tags.then(
    (list) => purgePages(...list),
    (error: unknown) => log.error({ component: 'page-cache', err: error }, 'purge failed'),
  );
}

/**
 * A project's own pages and its owner's; with `listed`, every list showing its card (published,
 * edited, deleted, a new board picture): and every "not found" answer, which may be it.
 */
export function purgeProjectPages(publicId: string, ownerId: number, options: { listed?: boolean } = {}): Promise<void> {
  return purgeQuietly(
    memberUrls([ownerId]).then((urls) => [
      pageTags.project(publicId),
      ...urls.map(pageTags.user),
      ...(options.listed ? [pageTags.lists, pageTags.missing] : []),
    ]),
  );
}

/** `purgeProjectPages` for a project known by its internal id (the job queue's boards and BOMs). */
export async function purgeProjectPagesById(projectId: number, options: { listed?: boolean } = {}): Promise<void> {
  const [row] = await getDb()
    .select({ publicId: projects.publicId, ownerId: projects.ownerId })
    .from(projects)
    .where(eq(projects.id, projectId))
    .catch(() => []);
  if (row) await purgeProjectPages(row.publicId, row.ownerId, options);
}

/** A project page whose conversation or counts changed, and the pages of members whose own lists did (stars). */
export function purgeProjectConversation(publicId: string, memberIds: number[] = []): Promise<void> {
  return purgeQuietly(memberUrls(memberIds).then((urls) => [pageTags.project(publicId), ...urls.map(pageTags.user)]));
}

/**
 * A member's pages under their current and former addresses, and the pages that show them as an
 * owner (their projects' pages and every list with their cards).
 */
export function purgeMemberPages(userId: number, formerUrls: string[] = []): Promise<void> {
  return purgeQuietly(
    memberUrls([userId]).then((urls) => [...new Set([...urls, ...formerUrls])].map(pageTags.user).concat(pageTags.lists, pageTags.missing)),
  );
}

/**
 * What hiding or restoring content changes: every list and feed, "not found" answers, the pages
 * of the projects (public ids) and members (internal ids) involved.
 */
export function purgeModeratedPages(projectIds: string[], userIds: number[]): Promise<void> {
  return purgeQuietly(
    memberUrls(userIds).then((urls) => [...projectIds.map(pageTags.project), ...urls.map(pageTags.user), pageTags.lists, pageTags.missing]),
  );
}

/** Everything that shows a member's videos: their pages and the projects (internal ids) the videos belong to. */
export function purgeVideoPages(ownerId: number, projectIds: (number | null)[]): Promise<void> {
  const ids = projectIds.filter((id): id is number => id !== null);
  return purgeQuietly(
    Promise.all([
      memberUrls([ownerId]),
      ids.length ? getDb().select({ publicId: projects.publicId }).from(projects).where(inArray(projects.id, ids)) : Promise.resolve([]),
    ]).then(([urls, linked]) => [...urls.map(pageTags.user), ...linked.map((row) => pageTags.project(row.publicId))]),
  );
}

/** A new donation: the home page's ticker and the donation list (both tagged `home`). */
export function purgeDonationPages(): Promise<void> {
  return purgeQuietly(Promise.resolve([pageTags.home]));
}

/**
 * A member's collections changed: their pages (the collections tab and each collection's page are
 * tagged with the member); with `appeared`, a collection guests may now read (made, or made
 * public), so "not found" answers too, which may have been its address.
 */
export function purgeMemberCollectionPages(userId: number, options: { appeared?: boolean } = {}): Promise<void> {
  return purgeQuietly(memberUrls([userId]).then((urls) => [...urls.map(pageTags.user), ...(options.appeared ? [pageTags.missing] : [])]));
}

/**
 * A follow changed: the target's follower count (a member's pages, a project's pages, or the lists,
 * a tag's page being `/newest?tag=`) and the follower's own "follows N" on their pages.
 */
export function purgeFollowPages(followerId: number, kind: 'user' | 'project' | 'tag', key: string): Promise<void> {
  return purgeQuietly(
    memberUrls([followerId]).then((urls) => [...urls.map(pageTags.user), kind === 'user' ? pageTags.user(key) : kind === 'project' ? pageTags.project(key) : pageTags.lists]),
  );
}
