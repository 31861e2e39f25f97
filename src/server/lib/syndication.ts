/**
 * Atom 1.0 and RSS 2.0 documents of feed entries: pure rendering, apart from the services that
 * find the entries (`services/community/atom-feeds.ts`), so every kind of entry (projects, build
 * logs, versions) is written the same way.
 */
import type { z } from 'zod';
import type { Locale } from '../../lib/i18n.ts';
import type { tagRefSchema } from '../../lib/contract/schemas/projects.ts';
import { projectPath, userPath } from '../../lib/paths.ts';
import { escapeXml } from '../../lib/xml.ts';

/** One entry of a feed: a project, a build log or a version. */
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
  tags: z.infer<typeof tagRefSchema>[];
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
