import type { APIRoute } from 'astro';
import { largeXmlAnswer, missingAnswer } from '../../server/http/crawler-answers.ts';
import { pageTags } from '../../server/page-cache/tags.ts';
import { buildSitemap, parseSitemapName } from '../../server/services/site/index.ts';
import { siteOrigin } from '../../server/lib/sso-links.ts';

/** `/sitemaps/projects-1.xml`, `/sitemaps/tags.xml`, …: one sitemap of the index. */
export const GET: APIRoute = async ({ params, url, locals, request }) => {
  const name = parseSitemapName(params.name ?? '');
  const body = name ? await buildSitemap(siteOrigin(url), name) : null;
  // Members' and collections' names are on their pages: every list purge reaches them.
  return body === null ? missingAnswer(null, locals.t) : largeXmlAnswer(body, request, [pageTags.lists]);
};
