import { variantPath } from '../../lib/paths.ts';
import { ok, redirect, type LoaderData, type PageLoader } from './page.ts';

/**
 * `GET /logout`: asks before signing out, with a button that posts to `/logout` (the `logout`
 * route middleware ends the session on that POST). A link or image from another site can only
 * open this page, never end the session. Guests have nothing to sign out of and go home.
 */
export const loadLogoutPage = (async ({ locals }) => {
  if (!locals.user) return redirect(variantPath(locals.variant, '/'));
  return ok({ nickname: locals.user.nickname });
}) satisfies PageLoader<{ nickname: string }>;

export type LogoutPageData = LoaderData<typeof loadLogoutPage>;
