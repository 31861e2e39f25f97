import type { APIRoute } from 'astro';
import { buildRobotsTxt } from '../server/lib/robots.ts';
import { siteOrigin } from '../server/lib/sso-links.ts';

/** Generated, so that it names the sitemap at the site's own origin. */
export const GET: APIRoute = ({ url }) =>
  new Response(buildRobotsTxt(siteOrigin(url)), { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' } });
