import type { APIRoute } from 'astro';
import { buildRss } from '../server/services/feeds.ts';
import { siteOrigin } from '../server/services/sso-links.ts';

export const GET: APIRoute = async ({ url, locals }) =>
  new Response(await buildRss(siteOrigin(url), locals.t('site.title'), locals.t('site.description')), {
    headers: { 'content-type': 'application/rss+xml; charset=utf-8', 'cache-control': 'public, max-age=600' },
  });
