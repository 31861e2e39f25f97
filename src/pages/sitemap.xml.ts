import type { APIRoute } from 'astro';
import { xmlAnswer } from '../server/http/crawler-answers.ts';
import { pageTags } from '../server/page-cache/tags.ts';
import { buildSitemapIndex } from '../server/services/site/index.ts';
import { siteOrigin } from '../server/lib/sso-links.ts';

/** The sitemap index: one `<sitemap>` per sitemap that lists something, purged with every list. */
export const GET: APIRoute = async ({ url }) => xmlAnswer(await buildSitemapIndex(siteOrigin(url)), 'xml', [pageTags.lists]);
