import { siteOrigin } from '../lib/sso-links.ts';
import { currentRequest } from '../log.ts';

/** One year of "https only", sent on responses the visitor received over https. */
export const HSTS_VALUE = 'max-age=31536000';

/**
 * Whether the visitor's connection is https: the request's own protocol, or, when it came through
 * a trusted proxy (`TRUST_PROXY`, see `requestClient`; the request being served unless said), the
 * first `X-Forwarded-Proto` of that proxy. From anyone else anyone could send that header, so it
 * is ignored.
 */
export function isSecureConnection(
  input: { protocol: string; forwardedProto?: string | string[] | null | undefined },
  viaTrustedProxy: boolean = currentRequest()?.viaTrustedProxy ?? false,
): boolean {
  if (input.protocol === 'https:') return true;
  if (!viaTrustedProxy) return false;
  const header = Array.isArray(input.forwardedProto) ? input.forwardedProto[0] : input.forwardedProto;
  return (header ?? '').split(',')[0]!.trim().toLowerCase() === 'https';
}

/** Whether the session cookie must be `Secure`: the site is public over https, or this request came over it. */
export function sessionCookieSecure(request: Request, url: URL): boolean {
  return siteOrigin(url).startsWith('https:') || isSecureConnection({ protocol: url.protocol, forwardedProto: request.headers.get('x-forwarded-proto') });
}
