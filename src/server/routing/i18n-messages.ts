import type { APIRoute } from 'astro';
import { isLocale, messagesByLocale } from '../../lib/i18n.ts';

/**
 * One locale's messages for clients that translate on their own (apps, scripts); cached 24 hours.
 * The site's islands get the few messages they use with their server rendering instead.
 */
export const GET: APIRoute = ({ params }) => {
  if (!isLocale(params.locale)) {
    return new Response(JSON.stringify({ error: 'unknown locale' }), {
      status: 404,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' },
    });
  }
  return new Response(JSON.stringify(messagesByLocale[params.locale]), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=86400, stale-while-revalidate=86400',
    },
  });
};
