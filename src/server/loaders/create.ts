import { getProjectDetail, loadFormSource, listTagTree, tagNamesOf, findDraftRemixSource } from '../services/projects/index.ts';
import { notFound, ok, type LoaderData, type PageLoader } from './page.ts';
import { isEmailUnverified } from '../services/accounts/index.ts';

/**
 * `/create/project` (the route's `auth` middleware guarantees a member): `?id=` edits one of
 * their projects, `?draft=` continues one of their drafts; anyone else's is a 404.
 */
export const loadCreatePage = (async ({ url, locals }) => {
  if (!locals.user) return notFound();
  const projectId = url.searchParams.get('id')?.trim() || null;
  const draftId = url.searchParams.get('draft')?.trim() || null;
  const [source, tags, mustConfirmEmail, remixOf] = await Promise.all([
    loadFormSource(locals.user.id, { projectId, draftId }),
    listTagTree(locals.locale),
    isEmailUnverified(locals.user.id),
    // A remix's draft names its original above the form.
    draftId ? findDraftRemixSource(locals.user.id, draftId) : null,
  ]);
  // Members' tags are not in the tree: their chips need their names too.
  const tagNames = await tagNamesOf(
    source.content.tags.filter((entry): entry is string => typeof entry === 'string'),
    locals.locale,
  );
  return ok({ source, tags, tagNames, mustConfirmEmail, remixOf });
}) satisfies PageLoader<unknown>;

export type CreatePageData = LoaderData<typeof loadCreatePage>;

/** `/create/success?id=`: the member's just published (or updated) project. */
export const loadSuccessPage = (async ({ url, locals }) => {
  const id = url.searchParams.get('id')?.trim() ?? '';
  const project = await getProjectDetail(id, locals.user?.id ?? null, locals.locale);
  if (!project.viewer.isOwner) return notFound('errors.project_not_found');
  return ok({ project, updated: url.searchParams.get('updated') === '1' });
}) satisfies PageLoader<unknown>;

export type SuccessPageData = LoaderData<typeof loadSuccessPage>;
