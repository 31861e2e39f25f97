import type { APIRoute } from 'astro';
import { buildRss } from '../server/services/feeds.ts';
import { siteOrigin } from '../server/services/sso-links.ts';
import { PAGE_TAGS_HEADER } from '../server/page-cache/key.ts';
import { pageTags } from '../server/page-cache/tags.ts';

// Cached for guests with the lists: what publishes, deletes or hides a project purges the feed too.
export const GET: APIRoute = async ({ url, locals }) =>
  new Response(await buildRss(siteOrigin(url), locals.t('site.title'), locals.t('site.description')), {
    headers: { 'content-type': 'application/rss+xml; charset=utf-8', 'cache-control': 'public, max-age=600', [PAGE_TAGS_HEADER]: pageTags.lists },
  });
