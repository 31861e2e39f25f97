import type { APIRoute } from 'astro';
import { buildSitemap } from '../server/services/feeds.ts';
import { siteOrigin } from '../server/services/sso-links.ts';
import { PAGE_TAGS_HEADER } from '../server/page-cache/key.ts';
import { pageTags } from '../server/page-cache/tags.ts';

// Cached for guests with the lists: what publishes, deletes or hides a project purges the feed too.
export const GET: APIRoute = async ({ url }) =>
  new Response(await buildSitemap(siteOrigin(url)), {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600', [PAGE_TAGS_HEADER]: pageTags.lists },
  });
