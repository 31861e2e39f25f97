import { donateLink } from '../services/donations.ts';
import { findProjectDetail, listRelatedProjects } from '../services/project-detail.ts';
import { countProjectView } from '../services/project-views.ts';
import { clientIp } from '../http/request-meta.ts';
import { CACHE_RENDER_HEADER } from '../page-cache/key.ts';
import { pageTags } from '../page-cache/tags.ts';
import { commentOptionsFrom, loadProjectComments } from './comments.ts';
import { ok, type LoaderData, type PageContext, type PageLoader } from './page.ts';
import { isEmailUnverified } from '../services/account-email.ts';

/** The project page (`/d-{id}`): the project, its comments and related projects; counts the view. */
export const loadProjectPage = (async (context) => {
  const id = context.params.id ?? '';
  const viewerId = context.locals.user?.id ?? null;
  // Found once; related projects and comments start from what was found.
  const { detail: project, ref } = await findProjectDetail(id, viewerId, context.locals.locale);
  const [related, comments, mustConfirmEmail] = await Promise.all([
    listRelatedProjects(ref, context.locals.locale, 4),
    loadProjectComments({ publicId: id, found: ref }, viewerId, commentOptionsFrom(context.url)),
    // A member who has not confirmed their address is told so where they would comment.
    viewerId ? isEmailUnverified(viewerId) : false,
  ]);
  countView(context, project.id);
  return ok({ project, related, comments, donate: donateLink(project.id), mustConfirmEmail }, { tags: [pageTags.project(project.id), pageTags.user(project.owner.url)] });
}) satisfies PageLoader<unknown>;

export type ProjectPageData = LoaderData<typeof loadProjectPage>;

/** Counts this request as a view of the project (once per visitor per day; never crawlers), without waiting. */
function countView(context: PageContext, publicId: string): void {
  // A guest's page may be rendered once for many visitors: the page cache counts each of them.
  if (context.request.headers.has(CACHE_RENDER_HEADER)) return;
  const ip = clientIp(context);
  countProjectView(publicId, {
    userId: context.locals.user?.id ?? null,
    ip: ip === 'unknown' ? null : ip,
    userAgent: context.request.headers.get('user-agent'),
  });
}
