import type { AstroGlobal } from 'astro';
import { getT, LOCALE_COOKIE, resolveLocale } from '../../lib/i18n.ts';
import { isMobilePath } from '../../lib/paths.ts';

/**
 * The 404 and 500 pages also render when the middleware did not finish (a request no route
 * matched before it ran, or an error thrown inside it): fill what the layouts read.
 */
export function fillErrorPageLocals(astro: AstroGlobal): void {
  const { locals } = astro;
  locals.locale ??= resolveLocale(astro.cookies.get(LOCALE_COOKIE)?.value, astro.request.headers.get('accept-language'));
  locals.t ??= getT(locals.locale);
  locals.url ??= astro.url;
  locals.variant ??= isMobilePath(locals.url.pathname) ? 'mobile' : 'desktop';
  locals.user ??= null;
  locals.sessionToken ??= null;
}
