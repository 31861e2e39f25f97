/**
 * Feeds of the newest published projects: Atom for the whole site (`/newest/feed.xml`), a tag
 * (`/newest/feed.xml?tag=`, the tag page's address with `/feed.xml`) and a member
 * (`/user/{url}/feed.xml`), and the RSS 2.0 of the whole site kept at `/rss.xml`. Every entry
 * carries its title, address, summary, author, dates, tags and the picture link previews use
 * (the cover, else the board's JPEG) as Media RSS.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { projectPath, userPath } from '../../../lib/paths.ts';
import { escapeXml } from '../../../lib/xml.ts';
import { getDb } from '../../db/client.ts';
import { projects, projectTags, tags, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { cardTags, isListed, shareImage, tagName, type TagRef } from '../projects/cards.ts';
import { tagIdsWithChildren } from '../projects/tags.ts';
import { findUserByUrl } from './members.ts';
import { listLogFeedEntries } from './logs.ts';
import { listVersionFeedEntries } from '../projects/versions.ts';

/** Entries per feed: a reader polling daily misses nothing unless 30 projects a day appear. */
export const FEED_SIZE = 30;

export interface FeedEntry {
  /** The project's public id. */
  id: string;
  /**
   * Where the entry links when it is not the project itself (a build log's `/d-{id}/log/{n}`);
   * also its Atom id, so entries of one project stay apart.
   */
  path?: string;
  /** The entry's whole text as sanitized HTML (a build log's body), besides its summary. */
  contentHtml?: string;
  title: string;
  summary: string;
  author: { url: string; nickname: string };
  publishedAt: Date;
  updatedAt: Date;
  image: string | null;
  tags: TagRef[];
}

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

export interface FeedHead {
  /** The feed's own absolute address. */
  self: string;
  /** The page it follows, absolute. */
  page: string;
  title: string;
  subtitle: string;
  locale: Locale;
}

const isoDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A picture's Media RSS element, by the address's extension where it has one. */
function mediaElement(url: string): string {
  const type = /\.jpe?g$/i.test(url) ? 'image/jpeg' : /\.png$/i.test(url) ? 'image/png' : /\.webp$/i.test(url) ? 'image/webp' : null;
  return `<media:content url="${escapeXml(url)}" medium="image"${type ? ` type="${type}"` : ''}/><media:thumbnail url="${escapeXml(url)}"/>`;
}

/** An Atom 1.0 feed (RFC 4287) of `entries`. */
export function renderAtomFeed(origin: string, head: FeedHead, entries: FeedEntry[]): string {
  // A feed's `updated` is its newest change; an empty feed says when it was read.
  const updated = entries.reduce<Date | null>((newest, entry) => (!newest || entry.updatedAt > newest ? entry.updatedAt : newest), null) ?? new Date();
  const items = entries.map((entry) => {
    const link = origin + (entry.path ?? projectPath(entry.id));
    return [
      '<entry>',
      `<id>${escapeXml(link)}</id>`,
      `<title type="text">${escapeXml(entry.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${escapeXml(link)}"/>`,
      `<published>${isoDate(entry.publishedAt)}</published>`,
      `<updated>${isoDate(entry.updatedAt)}</updated>`,
      `<author><name>${escapeXml(entry.author.nickname)}</name><uri>${escapeXml(origin + userPath(entry.author.url))}</uri></author>`,
      entry.summary ? `<summary type="text">${escapeXml(entry.summary)}</summary>` : '',
      // Our pictures' addresses are site paths: `xml:base` makes them whole for the reader.
      entry.contentHtml ? `<content type="html" xml:base="${escapeXml(link)}">${escapeXml(entry.contentHtml)}</content>` : '',
      ...entry.tags.map((tag) => `<category term="${escapeXml(tag.slug)}" label="${escapeXml(tag.name)}"/>`),
      entry.image ? `<link rel="enclosure" href="${escapeXml(new URL(entry.image, origin).toString())}"/>${mediaElement(new URL(entry.image, origin).toString())}` : '',
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="${head.locale}">`,
    `<id>${escapeXml(head.self)}</id>`,
    `<title type="text">${escapeXml(head.title)}</title>`,
    `<subtitle type="text">${escapeXml(head.subtitle)}</subtitle>`,
    `<updated>${isoDate(updated)}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(head.self)}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(head.page)}"/>`,
    `<icon>${escapeXml(origin)}/favicon.svg</icon>`,
    `<logo>${escapeXml(origin)}/og-default.png</logo>`,
    ...items,
    '</feed>',
    '',
  ].join('\n');
}

/** The RSS 2.0 feed of `entries` (the site's newest, at `/rss.xml`). */
export function renderRssFeed(origin: string, head: FeedHead, entries: FeedEntry[]): string {
  const items = entries
    .map((entry) => {
      const link = origin + (entry.path ?? projectPath(entry.id));
      return [
        '<item>',
        `<title>${escapeXml(entry.title)}</title>`,
        `<link>${escapeXml(link)}</link>`,
        `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
        `<description>${escapeXml(entry.summary)}</description>`,
        `<dc:creator>${escapeXml(entry.author.nickname)}</dc:creator>`,
        `<pubDate>${entry.publishedAt.toUTCString()}</pubDate>`,
        ...entry.tags.map((tag) => `<category>${escapeXml(tag.name)}</category>`),
        entry.image ? mediaElement(new URL(entry.image, origin).toString()) : '',
        '</item>',
      ].join('');
    })
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">',
    `<channel><title>${escapeXml(head.title)}</title><link>${escapeXml(head.page)}</link>`,
    `<atom:link href="${escapeXml(head.self)}" rel="self" type="application/rss+xml"/>`,
    `<description>${escapeXml(head.subtitle)}</description><language>${head.locale}</language>`,
    items,
    '</channel></rss>',
    '',
  ].join('\n');
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
    .where(and(eq(projects.publicId, publicId), isListed))
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
