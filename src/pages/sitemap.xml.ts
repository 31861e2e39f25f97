import type { APIRoute } from 'astro';
import { buildSitemap } from '../server/services/feeds.ts';
import { siteOrigin } from '../server/services/sso-links.ts';

export const GET: APIRoute = async ({ url }) =>
  new Response(await buildSitemap(siteOrigin(url)), {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
