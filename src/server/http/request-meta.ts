import type { APIContext } from 'astro';
import type { RequestMeta } from '../services/sso.ts';

/** The client address Astro resolved (the socket's; `X-Forwarded-For` only behind allowed domains). */
export function clientIp(context: Pick<APIContext, 'clientAddress'>): string {
  try {
    return context.clientAddress || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** IP, user agent and URL of a request, for rate limits, sessions and return addresses. */
export function requestMeta(context: Pick<APIContext, 'clientAddress' | 'request' | 'url'>): RequestMeta {
  return {
    ip: clientIp(context),
    userAgent: context.request.headers.get('user-agent') ?? '',
    requestUrl: context.url,
  };
}
