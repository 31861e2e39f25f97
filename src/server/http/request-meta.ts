import type { APIContext } from 'astro';
import { DEFAULT_LOCALE } from '../../lib/i18n.ts';
import type { RequestMeta } from '../services/accounts/index.ts';

/** The client address Astro resolved (the socket's; `X-Forwarded-For` only behind allowed domains). */
export function clientIp(context: Pick<APIContext, 'clientAddress'>): string {
  try {
    return context.clientAddress || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** IP, user agent, URL and language of a request, for rate limits, sessions, return addresses and emails. */
export function requestMeta(context: Pick<APIContext, 'clientAddress' | 'request' | 'url' | 'locals'>): RequestMeta {
  return {
    ip: clientIp(context),
    userAgent: context.request.headers.get('user-agent') ?? '',
    requestUrl: context.url,
    locale: context.locals.locale ?? DEFAULT_LOCALE,
  };
}
