import { getConfig } from '../config.ts';

/** The platform value the SSO expects from this site (seed-spec §6). */
export const SSO_PLATFORM = '6';

/**
 * The sign-in address: `SSO_LOGIN_URL?redirect=<return address>&siteId=<SSO_SITE_ID>&platform=6`.
 */
export function buildSignInUrl(returnUrl: string, loginUrl = getConfig().ssoLoginUrl): string {
  const separator = loginUrl.includes('?') ? '&' : '?';
  const params = new URLSearchParams({ redirect: returnUrl, siteId: getConfig().ssoSiteId, platform: SSO_PLATFORM });
  return `${loginUrl}${separator}${params.toString()}`;
}

/** The site's public origin: `SITE_URL` when configured, else the origin of the request. */
export function siteOrigin(requestUrl: URL): string {
  return getConfig().siteUrl ?? requestUrl.origin;
}
