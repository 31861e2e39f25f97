import { getConfig, type AppConfig } from '../config.ts';
import { siteOrigin } from '../lib/sso-links.ts';

/** One year of "https only", sent on responses the visitor received over https. */
export const HSTS_VALUE = 'max-age=31536000';

/**
 * Whether the visitor's connection is https: the request's own protocol, or, with
 * `TRUST_PROXY=1` only, the first `X-Forwarded-Proto` of the TLS proxy in front. Without
 * `TRUST_PROXY` anyone could send that header, so it is ignored.
 */
export function isSecureConnection(
  input: { protocol: string; forwardedProto?: string | string[] | null | undefined },
  config: AppConfig = getConfig(),
): boolean {
  if (input.protocol === 'https:') return true;
  if (!config.trustProxy) return false;
  const header = Array.isArray(input.forwardedProto) ? input.forwardedProto[0] : input.forwardedProto;
  return (header ?? '').split(',')[0]!.trim().toLowerCase() === 'https';
}

/** Whether the session cookie must be `Secure`: the site is public over https, or this request came over it. */
export function sessionCookieSecure(request: Request, url: URL): boolean {
  return siteOrigin(url).startsWith('https:') || isSecureConnection({ protocol: url.protocol, forwardedProto: request.headers.get('x-forwarded-proto') });
}
