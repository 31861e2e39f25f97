import { donateLink } from '../services/site/index.ts';
import { findProjectDetail, diffVersions, listVersionsOf, type VersionDiff } from '../services/projects/index.ts';
import { isAppError } from '../http/errors.ts';
import { pageTags } from '../page-cache/tags.ts';
import { ok, type LoaderData, type PageLoader } from './page.ts';

/**
 * The comparison of two versions of a project (`/d-{id}/versions/compare?from=&to=`): the
 * project's head and tab bar, the form choosing the two, and what changed. Without `from` and
 * `to` it compares the version before the latest with the latest; two versions that cannot be
 * compared (unknown, the same twice) show the form with the reason.
 */
export const loadVersionComparePage = (async (context) => {
  const viewerId = context.locals.user?.id ?? null;
  const id = context.params.id ?? '';
  const { detail: project, ref } = await findProjectDetail(id, viewerId, context.locals.locale);
  const versions = await listVersionsOf(ref.id);
  const from = context.url.searchParams.get('from')?.trim() || versions[1]?.name || '';
  const to = context.url.searchParams.get('to')?.trim() || versions[0]?.name || '';
  let diff: VersionDiff | null = null;
  let errorKey: string | null = null;
  if (versions.length < 2) errorKey = 'versions.compare.onlyOne';
  else {
    try {
      diff = await diffVersions(id, viewerId, from, to);
    } catch (error) {
      if (!isAppError(error) || (error.errorKey !== 'version_not_found' && error.errorKey !== 'same_version')) throw error;
      errorKey = `errors.${error.errorKey}`;
    }
  }
  return ok(
    { project, versions, from, to, diff, errorKey, donate: donateLink(project.id) },
    { status: errorKey === 'errors.version_not_found' ? 404 : 200, tags: [pageTags.project(project.id), pageTags.user(project.owner.url)] },
  );
}) satisfies PageLoader<unknown>;

export type VersionComparePageData = LoaderData<typeof loadVersionComparePage>;
