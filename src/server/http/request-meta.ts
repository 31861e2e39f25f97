import type { APIContext } from 'astro';
import { currentRequest } from '../log.ts';
import { DEFAULT_LOCALE } from '../../lib/i18n.ts';
import type { RequestMeta } from '../services/accounts/index.ts';

/**
 * The client's address: as the server read it for the request being served (through trusted
 * proxies, `requestClient`), else the socket's as Astro has it.
 */
export function clientIp(context: Pick<APIContext, 'clientAddress'>): string {
  const served = currentRequest()?.clientIp;
  if (served) return served;
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
