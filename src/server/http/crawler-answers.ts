/**
 * Answers of the addresses crawlers and feed readers fetch: sitemaps, feeds, robots.txt. They go
 * through the guest page cache like pages: kept with the tags of what they list, so a write that
 * purges those pages purges them too, and sent with a guest page's `Cache-Control` (30 s for a
 * shared cache). A sitemap too large for the cache (a full page is about 5 MB) is rendered for
 * each request instead (gzipped here), with the same `Cache-Control`, so a CDN never keeps a
 * deleted project longer than it keeps a page.
 */
import { PAGE_TAGS_HEADER } from '../page-cache/key.ts';
import { GUEST_PAGE_CACHE, guestCacheControl, MAX_PAGE_BYTES } from '../page-cache/page-cache.ts';
import { pageTags } from '../page-cache/tags.ts';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { APIContext } from 'astro';
import type { Translate } from '../../lib/i18n.ts';
import { feedPath, projectPath, tagPath, userPath } from '../../lib/paths.ts';
import { listFeed, listProjectFeed, type FeedSource, type FoundFeedSource } from '../services/community/index.ts';
import { projectFeedPath } from '../../lib/logs.ts';
import { siteOrigin } from '../lib/sso-links.ts';
import { preferredEncoding } from './encoding.ts';
import { isAppError, isInvalidTextInput } from './errors.ts';
import { renderAtomFeed, renderRssFeed, type FeedHead } from '../lib/syndication.ts';

const gzip = promisify(zlib.gzip);

export const XML_TYPES = {
  atom: 'application/atom+xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

/** An XML document for guests and crawlers, kept by the page cache under `tags`. */
export function xmlAnswer(body: string, type: keyof typeof XML_TYPES, tags: string[]): Response {
  return new Response(body, {
    headers: { 'content-type': XML_TYPES[type], 'cache-control': guestCacheControl(200, GUEST_PAGE_CACHE), [PAGE_TAGS_HEADER]: tags.join(' ') },
  });
}

/**
 * `xmlAnswer` for a document that may be too large for the page cache (a full sitemap, about
 * 5 MB): past the cache's limit it is gzipped here for a client that accepts it (a sixteenth of the
 * bytes), since nothing else on the way would compress it.
 */
export async function largeXmlAnswer(body: string, request: Request, tags: string[]): Promise<Response> {
  if (Buffer.byteLength(body) <= MAX_PAGE_BYTES) return xmlAnswer(body, 'xml', tags);
  const headers = { 'content-type': XML_TYPES.xml, 'cache-control': guestCacheControl(200, GUEST_PAGE_CACHE), vary: 'Accept-Encoding' };
  if (preferredEncoding({ headers: { 'accept-encoding': request.headers.get('accept-encoding') ?? undefined } }, ['gzip', 'identity']) !== 'gzip') return new Response(body, { headers });
  return new Response(new Uint8Array(await gzip(body, { level: 6 })), { headers: { ...headers, 'content-encoding': 'gzip' } });
}

/**
 * A feed or sitemap that does not exist: a short translated sentence with 404 (kept like a page's
 * "not found", until something is published). Only a missing resource is answered here; anything
 * else goes on to the 500 answer.
 */
export function missingAnswer(error: unknown, t: Translate): Response {
  if (error !== null && !isInvalidTextInput(error) && !(isAppError(error) && error.status === 404)) throw error;
  const key = isAppError(error) ? `errors.${error.errorKey}` : 'errors.not_found';
  return new Response(`404 ${t(key)}\n`, {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': guestCacheControl(404, GUEST_PAGE_CACHE), [PAGE_TAGS_HEADER]: pageTags.missing },
  });
}

/** The head of each feed: its title and subtitle in the reader's language, its addresses. */
function feedHead(origin: string, source: FoundFeedSource, format: 'atom' | 'rss', locals: App.Locals): FeedHead {
  const { t, locale } = locals;
  switch (source.kind) {
    case 'newest':
      return {
        self: origin + (format === 'rss' ? '/rss.xml' : feedPath(source)),
        page: `${origin}/newest`,
        title: `${t('list.newestTitle')} · ${t('site.name')}`,
        subtitle: t('site.description'),
        locale,
      };
    case 'tag':
      return { self: origin + feedPath(source), page: origin + tagPath(source.slug), title: `${t('tag.title', { name: source.name })} · ${t('site.name')}`, subtitle: t('tag.description', { name: source.name }), locale };
    case 'member':
      return { self: origin + feedPath(source), page: origin + userPath(source.url), title: `${t('feeds.memberTitle', { name: source.nickname })} · ${t('site.name')}`, subtitle: t('feeds.memberSubtitle', { name: source.nickname }), locale };
  }
}

/**
 * A feed's answer: Atom (or `/rss.xml`'s RSS 2.0), kept under the tags of what it lists (every
 * list, and the member's pages for a member's feed); a member's former address leads to the
 * current one; an unknown tag or member is a 404.
 */
export async function feedAnswer(context: Pick<APIContext, 'url' | 'locals'>, source: FeedSource, format: 'atom' | 'rss' = 'atom'): Promise<Response> {
  const origin = siteOrigin(context.url);
  try {
    const found = await listFeed(source, context.locals.locale);
    if ('movedTo' in found) return new Response(null, { status: 301, headers: { location: feedPath({ kind: 'member', url: found.movedTo }) } });
    const head = feedHead(origin, found.source, format, context.locals);
    const tags = found.source.kind === 'member' ? [pageTags.lists, pageTags.user(found.source.url)] : [pageTags.lists];
    return xmlAnswer(format === 'rss' ? renderRssFeed(origin, head, found.entries) : renderAtomFeed(origin, head, found.entries), format, tags);
  } catch (error) {
    return missingAnswer(error, context.locals.t);
  }
}

/**
 * The Atom feed of one project (`/d-{id}/feed.xml`): its build logs, kept under the project's tag
 * so a new or changed log purges it with the project's pages; a hidden or missing project is a 404.
 */
export async function projectFeedAnswer(context: Pick<APIContext, 'url' | 'locals'>, publicId: string): Promise<Response> {
  const origin = siteOrigin(context.url);
  const { t, locale } = context.locals;
  try {
    const { project, entries } = await listProjectFeed(publicId);
    const head: FeedHead = {
      self: origin + projectFeedPath(project.id),
      page: origin + projectPath(project.id),
      title: `${t('logs.feedTitle', { title: project.title })} · ${t('site.name')}`,
      subtitle: t('logs.feedSubtitle', { title: project.title, author: project.owner.nickname }),
      locale,
    };
    return xmlAnswer(renderAtomFeed(origin, head, entries), 'atom', [pageTags.project(project.id), pageTags.user(project.owner.url)]);
  } catch (error) {
    return missingAnswer(error, t);
  }
}
