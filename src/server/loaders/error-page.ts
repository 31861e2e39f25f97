import type { AstroGlobal } from 'astro';
import { getT, LOCALE_COOKIE, resolveLocale } from '../../lib/i18n.ts';
import { isMobilePath } from '../../lib/paths.ts';
import { toAppError } from '../http/envelope.ts';
import { isAppError } from '../http/errors.ts';
import { currentRequest, log } from '../log.ts';
import { loadViewer } from './page.ts';

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

/** What the error page shows. */
export interface ErrorPageData {
  status: 500 | 503;
  message: string;
  /** The request's id, for the member to quote (the stack is in the log under it). */
  requestId: string | undefined;
}

/**
 * The 500 page's data. The database or the bucket away for a moment is a 503 with when to try
 * again, as the API answers it, so a load balancer and a crawler see a pause rather than a broken
 * page, and the log has it as a warning; anything else is a 500 logged with its stack. The
 * member never sees a stack trace: in production only known errors say more than the generic text.
 */
export async function loadErrorPage(astro: AstroGlobal, error: unknown): Promise<ErrorPageData> {
  fillErrorPageLocals(astro);
  // The header still shows the member, unless loading them is what failed.
  await loadViewer(astro.locals).catch(() => (astro.locals.viewer = null));
  const { t } = astro.locals;
  const appError = toAppError(error);
  const unavailable = appError.status === 503;
  if (unavailable) {
    // Astro answers its 500 page with a 500 whatever the page sets: the middleware changes it.
    astro.locals.unavailable = { retryAfterSeconds: appError.retryAfterSeconds ?? 5 };
    log.warn({ err: error }, 'page not rendered: a service is out of reach');
  } else {
    log.error({ err: error }, 'page render failed');
  }
  const message =
    isAppError(error) || unavailable
      ? t(`errors.${appError.errorKey}`)
      : import.meta.env.PROD || !(error instanceof Error)
        ? t('errors.server.generic')
        : error.message;
  return { status: unavailable ? 503 : 500, message, requestId: currentRequest()?.id };
}
