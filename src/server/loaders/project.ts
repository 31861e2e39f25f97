import { donateLink } from '../services/site/index.ts';
import { findProjectDetail, listRelatedProjects, countProjectView, listVersionsOf, type VersionInfo, loadProjectLineage } from '../services/projects/index.ts';
import { clientIp } from '../http/request-meta.ts';
import { CACHE_RENDER_HEADER } from '../page-cache/key.ts';
import { pageTags } from '../page-cache/tags.ts';
import { commentOptionsFrom, loadProjectComments } from './comments.ts';
import { notFound, ok, type LoaderData, type PageContext, type PageLoader } from './page.ts';
import { isProjectTab, type ProjectTab } from '../../lib/project-tabs.ts';
import { AppError } from '../http/errors.ts';
import { isEmailUnverified } from '../services/accounts/index.ts';
import { loadLogsTab, type LogsTabData } from './logs.ts';
import { listProjectMakes, type MakeItem } from '../services/community/index.ts';
import { pagingSchema } from '../http/validation.ts';
import { readSourceSummary } from '../services/eda/index.ts';
import type { PublishedProjectRef } from '../services/core/index.ts';
import type { Page } from '../lib/paging.ts';
import { isPrefetchRequest } from '../../lib/prefetch.ts';

/** The project page (`/d-{id}`): the project, its comments and related projects; counts the view. */
export const loadProjectPage = (async (context) => {
  const id = context.params.id ?? '';
  const viewerId = context.locals.user?.id ?? null;
  // Found once; related projects and comments start from what was found, with its files.
  const {
    detail: project,
    ref,
    alongside: [related, comments, mustConfirmEmail],
  } = await findProjectDetail(id, viewerId, context.locals.locale, (found) =>
    Promise.all([
      listRelatedProjects(found, context.locals.locale),
      loadProjectComments({ publicId: id, found }, viewerId, commentOptionsFrom(context.url)),
      // A member who has not confirmed their address is told so where they would comment.
      viewerId ? isEmailUnverified(viewerId) : false,
    ]),
  );
  const [lineage, source] = await Promise.all([
    loadProjectLineage({ id: ref.id, remixOfId: ref.remixOfId ?? null, remixCount: project.tabs.remixes }, viewerId, context.locals.locale),
    // Its KiCad design (only a project with KiCad files has one): the checks' outcome for everyone, how far reading it has got for its owner.
    project.attachments.some((file) => file.kind === 'kicad') ? readSourceSummary(ref.id, project.viewer.isOwner) : null,
  ]);
  const follow = project.follow;
  countView(context, project.id);
  return ok(
    // A remix whose original only its owner and staff see: shown to them, so never filled from a guest's page.
    // `found` goes with the comments' place to a member's fill (server-side, in the kept page's marks): their comments need not wait for the project to be found again.
    { project, found: ref, related, comments, donate: donateLink(project.id), mustConfirmEmail, lineage, follow, source, originalHidden: ref.remixOfId != null && !lineage.basedOn },
    { tags: [pageTags.project(project.id), pageTags.user(project.owner.url), ...lineageTags(lineage)] },
  );
}) satisfies PageLoader<unknown>;

export type ProjectPageData = LoaderData<typeof loadProjectPage>;

/**
 * What a guest's copy of a page showing lineage also depends on: the original it names (renamed,
 * hidden, deleted) and, when it lists remixes as cards, the lists (a remix hidden or deleted).
 */
function lineageTags(lineage: Awaited<ReturnType<typeof loadProjectLineage>>): string[] {
  return [...(lineage.basedOn ? [pageTags.project(lineage.basedOn.id)] : []), ...(lineage.remixes.length ? [pageTags.lists] : [])];
}

/** Counts this request as a view of the project (once per visitor per day; never crawlers), without waiting. */
export function countView(context: PageContext, publicId: string): void {
  // A guest's page may be rendered once for many visitors: the page cache counts each of them.
  if (context.request.headers.has(CACHE_RENDER_HEADER)) return;
  // A prefetch is not a view; the click after it is.
  if (isPrefetchRequest((name) => context.request.headers.get(name))) return;
  const ip = clientIp(context);
  countProjectView(publicId, {
    userId: context.locals.user?.id ?? null,
    ip: ip === 'unknown' ? null : ip,
    userAgent: context.request.headers.get('user-agent'),
  });
}

/**
 * What a tab other than the overview shows (`/d-{id}/{tab}`). Each feature adds its case:
 * `| { tab: 'logs'; page: Page<LogEntry> }` here, a `case` in `loadProjectTab`, and its component
 * in `ProjectTabView.astro`.
 */
export type ProjectTabData = LogsTabData | { tab: 'versions'; versions: VersionInfo[] } | { tab: 'makes'; page: Page<MakeItem> };

/** The data of one of the project's tabs, for the project as found. */
async function loadProjectTab(tab: Exclude<ProjectTab, 'overview'>, ref: PublishedProjectRef, context: PageContext): Promise<ProjectTabData> {
  switch (tab) {
    case 'logs':
      return loadLogsTab(context.params.id ?? '', ref, context);
    case 'versions':
      return { tab, versions: await listVersionsOf(ref.id) };
    case 'makes': {
      const paging = pagingSchema.parse({ page: context.url.searchParams.get('page') ?? undefined, pageSize: 12 });
      return { tab, page: await listProjectMakes(context.params.id ?? '', paging, context.locals.user?.id ?? null) };
    }
    default:
      throw new AppError('not_found');
  }
}

/** A project's tab (`/d-{id}/{tab}`): the project's head, the tab bar and the tab's own content. */
export const loadProjectTabPage = (async (context) => {
  const tab = context.params.tab ?? '';
  if (!isProjectTab(tab) || tab === 'overview') return notFound();
  const viewerId = context.locals.user?.id ?? null;
  const { detail: project, ref } = await findProjectDetail(context.params.id ?? '', viewerId, context.locals.locale);
  const [data, lineage] = await Promise.all([
    loadProjectTab(tab, ref, context),
    loadProjectLineage({ id: ref.id, remixOfId: ref.remixOfId ?? null, remixCount: 0 }, viewerId, context.locals.locale),
  ]);
  const follow = project.follow;
  return ok({ project, tab, data, donate: donateLink(project.id), lineage, follow }, { tags: [pageTags.project(project.id), pageTags.user(project.owner.url), ...lineageTags(lineage)] });
}) satisfies PageLoader<unknown>;

export type ProjectTabPageData = LoaderData<typeof loadProjectTabPage>;
