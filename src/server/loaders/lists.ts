import type { Locale } from '../../lib/i18n.ts';
import { listCollectionProjects, listProjects } from '../services/project-list.ts';
import { searchProjects, type SearchSort } from '../services/search.ts';
import { getCollection } from '../services/site.ts';
import { getTagDetail, listPopularTags, listTagTree } from '../services/tags.ts';
import { pageParam } from './page.ts';

const PAGE_SIZE = 24;

function tagParam(url: URL): string | undefined {
  const value = url.searchParams.get('tag')?.trim();
  return value && value.length <= 64 ? value : undefined;
}

/**
 * `/newest` and `/recommend` (both variants): the tag tree for the filter, the selected tag
 * (its name, parent and children: `/newest?tag=` is the tag page) and one page of projects.
 */
export async function loadProjectListPage(sort: 'newest' | 'recommend', url: URL, locale: Locale) {
  const tag = tagParam(url);
  const page = pageParam(url);
  const [tree, tagDetail, projects] = await Promise.all([
    listTagTree(locale),
    tag ? getTagDetail(tag, locale) : Promise.resolve(null),
    listProjects({ sort, tag, page, pageSize: PAGE_SIZE }, locale),
  ]);
  return { sort, tree, tag: tagDetail, projects };
}

export type ProjectListPageData = Awaited<ReturnType<typeof loadProjectListPage>>;

/** `/collection/{name}`: the collection and one page of its projects in the curator's order. */
export async function loadCollectionPage(name: string, url: URL, locale: Locale) {
  const collection = await getCollection(name, locale);
  const projects = await listCollectionProjects(collection.id, { page: pageParam(url), pageSize: PAGE_SIZE }, locale);
  return { collection, projects };
}

export type CollectionPageData = Awaited<ReturnType<typeof loadCollectionPage>>;

const SORTS: SearchSort[] = ['relevance', 'newest', 'stars'];

/**
 * `/search?q=&tag=&sort=&page=`: results with highlights, and suggestions (popular tags, newest
 * projects) when there is no query or nothing matched.
 */
export async function loadSearchPage(url: URL, locale: Locale) {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100);
  const tag = tagParam(url);
  const sortParam = url.searchParams.get('sort') as SearchSort | null;
  const sort: SearchSort = sortParam && SORTS.includes(sortParam) ? sortParam : 'relevance';
  const page = pageParam(url);
  const [tree, tagDetail, results] = await Promise.all([
    listTagTree(locale),
    tag ? getTagDetail(tag, locale) : Promise.resolve(null),
    q ? searchProjects({ q, tag, sort, page, pageSize: PAGE_SIZE }, locale) : Promise.resolve(null),
  ]);
  const needSuggestions = !results || results.total === 0;
  const [popularTags, newest] = needSuggestions
    ? await Promise.all([listPopularTags(locale, 12), listProjects({ sort: 'newest', page: 1, pageSize: 4 }, locale)])
    : [[], null];
  return { q, tag: tagDetail, sort, tree, results, suggestions: needSuggestions ? { popularTags, newest: newest?.list ?? [] } : null };
}

export type SearchPageData = Awaited<ReturnType<typeof loadSearchPage>>;
