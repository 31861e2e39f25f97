import { LOG_PAGE_SIZE } from '../../lib/logs.ts';
import { pageTags } from '../page-cache/tags.ts';
import { isEmailUnverified } from '../services/accounts/index.ts';
import { getLogView, listLogs, type LogEntry } from '../services/community/index.ts';
import { findProjectDetail } from '../services/projects/index.ts';
import { commentOptionsFrom, loadProjectComments } from './comments.ts';
import { notFound, ok, type LoaderData, type PageContext, type PageLoader } from './page.ts';
import type { PublishedProjectRef } from '../services/core/index.ts';
import type { Page } from '../lib/paging.ts';

/** The Logs tab (`/d-{id}/logs`): a page of the logs, newest first; the owner also gets the form for a new one. */
export interface LogsTabData {
  tab: 'logs';
  page: Page<LogEntry>;
  /** The viewer owns the project: the "New log" form is shown. */
  canPost: boolean;
}

/** `?page=` of a list page: a whole number from 1, else the first page. */
function pageParam(url: URL): number {
  const value = url.searchParams.get('page');
  return value && /^\d{1,6}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}

/** The data of the Logs tab of the project `ref` (public id `publicId`). */
export async function loadLogsTab(publicId: string, ref: PublishedProjectRef, context: PageContext): Promise<LogsTabData> {
  const viewerId = context.locals.user?.id ?? null;
  const page = await listLogs({ id: publicId, page: pageParam(context.url), pageSize: LOG_PAGE_SIZE }, viewerId, ref);
  return { tab: 'logs', page, canPost: viewerId !== null && viewerId === ref.ownerId };
}

/**
 * One build log's page (`/d-{id}/log/{n}`): the project's head, the log with the ones before and
 * after it, and the log's own comments.
 */
export const loadProjectLogPage = (async (context) => {
  const raw = context.params.n ?? '';
  if (!/^[1-9]\d{0,8}$/.test(raw)) return notFound('errors.log_not_found');
  const n = Number(raw);
  const publicId = context.params.id ?? '';
  const viewerId = context.locals.user?.id ?? null;
  const { detail: project, ref } = await findProjectDetail(publicId, viewerId, context.locals.locale);
  const view = await getLogView(publicId, ref, n, viewerId);
  const [comments, mustConfirmEmail] = await Promise.all([
    loadProjectComments({ publicId, found: ref, log: { n, id: view.logId } }, viewerId, commentOptionsFrom(context.url)),
    viewerId ? isEmailUnverified(viewerId) : false,
  ]);
  return ok(
    { project, log: view.log, previous: view.previous, next: view.next, comments, mustConfirmEmail },
    { tags: [pageTags.project(project.id), pageTags.user(project.owner.url)] },
  );
}) satisfies PageLoader<unknown>;

export type ProjectLogPageData = LoaderData<typeof loadProjectLogPage>;
