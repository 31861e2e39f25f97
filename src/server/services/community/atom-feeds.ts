/**
 * Feeds of the newest published projects: Atom for the whole site (`/newest/feed.xml`), a tag
 * (`/newest/feed.xml?tag=`, the tag page's address with `/feed.xml`) and a member
 * (`/user/{url}/feed.xml`), and the RSS 2.0 of the whole site kept at `/rss.xml`. Every entry
 * carries its title, address, summary, author, dates, tags and the picture link previews use
 * (the cover, else the board's JPEG) as Media RSS.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { projects, projectTags, tags, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { cardTags, shareImage, tagName, tagIdsWithChildren, listVersionFeedEntries } from '../projects/index.ts';
import { findUserByUrl } from './members.ts';
import { listLogFeedEntries } from './logs.ts';
import { isListed, publishedProjectById } from '../core/index.ts';
import type { FeedEntry } from '../../lib/syndication.ts';

/** Entries per feed: a reader polling daily misses nothing unless 30 projects a day appear. */
export const FEED_SIZE = 30;

/** Which projects a feed follows (as its address names them). */
export type FeedSource = { kind: 'newest' } | { kind: 'tag'; slug: string } | { kind: 'member'; url: string };

/** A feed's source as found: with the tag's name or the member's nickname for its title. */
export type FoundFeedSource = { kind: 'newest' } | { kind: 'tag'; slug: string; name: string } | { kind: 'member'; url: string; nickname: string };

/**
 * The newest published projects of `source`, newest first. An unknown tag or member is the
 * services' 404 (`tag_not_found`, `user_not_found`); a member's former URL answers `{ movedTo }`.
 */
export async function listFeed(
  source: FeedSource,
  locale: Locale,
  limit = FEED_SIZE,
): Promise<{ source: FoundFeedSource; entries: FeedEntry[] } | { movedTo: string }> {
  let where: SQL | undefined;
  let found: FoundFeedSource = { kind: 'newest' };
  if (source.kind === 'tag') {
    const [tag] = await getDb().select({ nameEn: tags.nameEn, nameZh: tags.nameZh }).from(tags).where(eq(tags.slug, source.slug)).limit(1);
    if (!tag) throw new AppError('tag_not_found');
    const ids = await tagIdsWithChildren(source.slug);
    where = sql`${projects.id} IN (SELECT ${projectTags.projectId} FROM ${projectTags} WHERE ${inArray(projectTags.tagId, ids)})`;
    found = { kind: 'tag', slug: source.slug, name: tagName(tag, locale) };
  } else if (source.kind === 'member') {
    const member = await findUserByUrl(source.url);
    if ('movedTo' in member) return member;
    where = eq(projects.ownerId, member.user.id);
    found = { kind: 'member', url: member.user.url, nickname: member.user.nickname };
  }
  const rows = await getDb()
    .select({
      id: projects.publicId,
      title: projects.title,
      summary: projects.summary,
      publishedAt: projects.publishedAt,
      updatedAt: projects.updatedAt,
      image: shareImage,
      tags: cardTags,
      ownerUrl: users.customUrl,
      ownerNickname: users.nickname,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(where ? and(isListed, where) : isListed)
    .orderBy(desc(projects.publishedAt), desc(projects.id))
    .limit(limit);
  return {
    source: found,
    entries: rows.map((row) => ({
      id: row.id,
      title: row.title,
      summary: row.summary,
      author: { url: row.ownerUrl, nickname: row.ownerNickname },
      publishedAt: row.publishedAt,
      updatedAt: row.updatedAt,
      image: row.image,
      tags: (row.tags ?? []).map((tag) => ({ slug: tag.slug, name: tagName(tag, locale) })),
    })),
  };
}

/** A project's feed as found: the project named in its head, and its entries newest first. */
export interface ProjectFeed {
  project: { id: string; title: string; owner: { url: string; nickname: string } };
  entries: FeedEntry[];
}

/**
 * The Atom feed of one published project (`/d-{id}/feed.xml`), as a guest may read it: what
 * happens on the project after it is published (its build logs and new versions), newest first. Each kind adds its
 * entries here; a hidden or deleted project is the services' 404 `project_not_found`.
 */
export async function listProjectFeed(publicId: string, limit = FEED_SIZE): Promise<ProjectFeed> {
  const [row] = await getDb()
    .select({ id: projects.id, ownerId: projects.ownerId, title: projects.title, ownerUrl: users.customUrl, ownerNickname: users.nickname })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(publishedProjectById(publicId, 'listed'))
    .limit(1);
  if (!row) throw new AppError('project_not_found');
  const owner = { url: row.ownerUrl, nickname: row.ownerNickname };
  const [logs, versions] = await Promise.all([
    listLogFeedEntries({ id: row.id, ownerId: row.ownerId }, publicId, limit),
    listVersionFeedEntries({ id: row.id, title: row.title, owner }, publicId, limit),
  ]);
  const entries = [...logs, ...versions].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime()).slice(0, limit);
  return { project: { id: publicId, title: row.title, owner: { url: row.ownerUrl, nickname: row.ownerNickname } }, entries };
}
