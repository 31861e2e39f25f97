import { donateLink, getCollection, listDonations } from '../services/site/index.ts';
import { listCollectionProjects, listProjects, searchProjects, type SearchSort, getTag, listPopularTags, listTagTree } from '../services/projects/index.ts';
import { pageTags } from '../page-cache/tags.ts';
import { isAppError } from '../http/errors.ts';
import { tagForAlias } from '../services/staff/index.ts';
import { getFollowState } from '../services/community/index.ts';
import { ok, pageParam, redirect, type LoaderData, type PageContext, type PageLoader } from './page.ts';

const PAGE_SIZE = 24;

function tagParam(url: URL): string | undefined {
  const value = url.searchParams.get('tag')?.trim();
  return value && value.length <= 64 ? value : undefined;
}

/**
 * `/newest` and `/recommend`: the tag tree for the filter, the selected tag (its name, parent and
 * children: `/newest?tag=` is the tag page) and one page of projects.
 */
async function loadProjectList(sort: 'newest' | 'recommend', { url, locals }: PageContext) {
  const { locale } = locals;
  const tag = tagParam(url);
  let loaded;
  try {
    loaded = await Promise.all([
      listTagTree(locale),
      tag ? getTag(tag, locale) : Promise.resolve(null),
      listProjects({ sort, tag, page: pageParam(url), pageSize: PAGE_SIZE }, locale),
      // A tag's page has its Follow button.
      tag ? getFollowState(locals.user?.id ?? null, { kind: 'tag', target: tag }) : Promise.resolve(null),
    ]);
  } catch (error) {
    // A tag merged into another: its old address leads to the one that took its projects.
    const mergedInto = tag && isAppError(error) && error.errorKey === 'tag_not_found' ? await tagForAlias(tag) : null;
    if (!mergedInto) throw error;
    const target = new URL(url);
    target.searchParams.set('tag', mergedInto);
    return redirect(`${locals.url.pathname}${target.search}`, 301);
  }
  const [tree, tagDetail, projects, follow] = loaded;
  return ok({ sort, tree, tag: tagDetail, projects, follow }, { tags: [pageTags.lists] });
}

export const loadNewestPage = ((context) => loadProjectList('newest', context)) satisfies PageLoader<unknown>;
export const loadRecommendPage = ((context) => loadProjectList('recommend', context)) satisfies PageLoader<unknown>;

export type ProjectListPageData = LoaderData<typeof loadNewestPage>;

/** `/collection/{name}`: the collection and one page of its projects in the curator's order. */
export const loadCollectionPage = (async ({ params, url, locals: { locale } }) => {
  const collection = await getCollection(params.name ?? '', locale);
  const projects = await listCollectionProjects(collection.id, { page: pageParam(url), pageSize: PAGE_SIZE }, locale);
  return ok({ collection, projects }, { tags: [pageTags.lists, pageTags.home] });
}) satisfies PageLoader<unknown>;

export type CollectionPageData = LoaderData<typeof loadCollectionPage>;

/** `/donation-list`: every donation, newest first. */
export const loadDonationsPage = (async ({ url }) => ok({ donations: await listDonations({ page: pageParam(url), pageSize: 30 }), donate: donateLink() }, { tags: [pageTags.home] })) satisfies PageLoader<unknown>;

export type DonationsPageData = LoaderData<typeof loadDonationsPage>;

const SORTS: SearchSort[] = ['relevance', 'newest', 'stars'];

/**
 * `/search?q=&tag=&sort=&page=`: results with highlights, and suggestions (popular tags, newest
 * projects) when there is no query or nothing matched.
 */
export const loadSearchPage = (async ({ url, locals: { locale } }) => {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100);
  const tag = tagParam(url);
  const sortParam = url.searchParams.get('sort') as SearchSort | null;
  const sort: SearchSort = sortParam && SORTS.includes(sortParam) ? sortParam : 'relevance';
  const page = pageParam(url);
  const [tree, tagDetail, results] = await Promise.all([
    listTagTree(locale),
    tag ? getTag(tag, locale) : Promise.resolve(null),
    q ? searchProjects({ q, tag, sort, page, pageSize: PAGE_SIZE }, locale) : Promise.resolve(null),
  ]);
  const needSuggestions = !results || results.total === 0;
  const [popularTags, newest] = needSuggestions
    ? await Promise.all([listPopularTags(locale, 12), listProjects({ sort: 'newest', page: 1, pageSize: 4 }, locale)])
    : [[], null];
  return ok({ q, tag: tagDetail, sort, tree, results, suggestions: needSuggestions ? { popularTags, newest: newest?.list ?? [] } : null }, { tags: [pageTags.lists] });
}) satisfies PageLoader<unknown>;

export type SearchPageData = LoaderData<typeof loadSearchPage>;
