import type { CommentSort, CommentThread } from '../../lib/conversation-types.ts';
import { getCommentThread, listComments } from '../services/community/index.ts';
import type { PublishedProjectRef } from '../services/core/index.ts';
import type { Page } from '../lib/paging.ts';

/** Top-level comments per page on the project page. */
export const COMMENTS_PAGE_SIZE = 20;

export interface CommentOptions {
  /** `?commentPage=`: the page of top-level comments rendered (no-JS readers and crawlers page with links). */
  page: number;
  /** `?commentSort=oldest`; newest first otherwise. */
  sort: CommentSort;
  /** `?comment=<id>`: a linked comment, whose whole thread is rendered first. */
  focusId: number | null;
}

/** What the comments section of `/d-{id}` renders on the server. */
export interface CommentsSectionData {
  page: Page<CommentThread>;
  sort: CommentSort;
  focus: CommentThread | null;
  focusId: number | null;
}

function positiveInt(value: string | null, max: number): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const number = Number(value);
  return number >= 1 && number <= max ? number : null;
}

/** The comment options of a project page URL. */
export function commentOptionsFrom(url: URL): CommentOptions {
  return {
    page: positiveInt(url.searchParams.get('commentPage'), 100_000) ?? 1,
    sort: url.searchParams.get('commentSort') === 'oldest' ? 'oldest' : 'newest',
    focusId: positiveInt(url.searchParams.get('comment'), 2_147_483_647),
  };
}

/**
 * The first (or requested) page of a project's comments (or, with `log`, of that build log's), and
 * the linked thread if any.
 */
export async function loadProjectComments(
  project: { publicId: string; found: PublishedProjectRef; log?: { n: number; id: number } },
  viewerId: number | null,
  options: CommentOptions,
): Promise<CommentsSectionData> {
  const { log } = project;
  const [page, focus] = await Promise.all([
    listComments({ id: project.publicId, page: options.page, pageSize: COMMENTS_PAGE_SIZE, sort: options.sort, log: log?.n }, viewerId, project.found, log?.id),
    options.focusId ? getCommentThread(project.publicId, options.focusId, viewerId, project.found, log?.id ?? null) : Promise.resolve(null),
  ]);
  return { page: page as Page<CommentThread>, sort: options.sort, focus, focusId: focus ? options.focusId : null };
}
