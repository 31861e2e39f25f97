import { COLLECTION_PAGE_SIZE } from '../../lib/collection-rules.ts';
import { memberCollectionPath, variantPath } from '../../lib/paths.ts';
import { pageTags } from '../page-cache/tags.ts';
import { getMemberCollection, listOwnCollectionEntries, findUserByUrl } from '../services/community/index.ts';
import { ok, pageParam, redirect, type LoaderData, type PageLoader } from './page.ts';
import { userPageContext } from './user.ts';

/**
 * `/user/{url}/collections/{slug}`: a member's collection with a page of its projects, under the
 * member's banner. A former custom URL redirects; someone else's private collection, like an
 * unknown one, is the not-found page (`collection_not_found`).
 */
export const loadMemberCollectionPage = (async (context) => {
  const { user, variant, locale } = context.locals;
  const slug = context.params.slug ?? '';
  const found = await findUserByUrl(context.params.url ?? '', user?.id ?? null);
  if ('movedTo' in found) return redirect(variantPath(variant, memberCollectionPath(found.movedTo, slug)) + context.url.search, 301);
  const isOwner = user?.id === found.user.id;
  const profile = await userPageContext(found.user, isOwner);
  const page = await getMemberCollection(found.user, slug.toLowerCase(), user?.id ?? null, { page: pageParam(context.url), pageSize: COLLECTION_PAGE_SIZE }, locale);
  // The owner organises every project, not only this page's.
  const entries = isOwner ? await listOwnCollectionEntries(found.user.id, page.collection.slug) : [];
  // Collection writes purge the member's pages; a project deleted or hidden purges every list.
  return ok({ context: profile, ...page, entries }, { tags: [pageTags.user(found.user.url), pageTags.lists] });
}) satisfies PageLoader<unknown>;

export type MemberCollectionPageData = LoaderData<typeof loadMemberCollectionPage>;
