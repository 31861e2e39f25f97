/** Desktop or mobile (`/m`) variant of a page. */
export type Variant = 'desktop' | 'mobile';

/** The path of `desktopPath` in `variant`: `/d-x` → `/m/d-x` on mobile, `/` → `/m`. */
export function variantPath(variant: Variant, desktopPath: string): string {
  if (variant === 'desktop') return desktopPath;
  if (desktopPath === '/' || desktopPath === '') return '/m';
  if (desktopPath.startsWith('/?')) return `/m${desktopPath.slice(1)}`;
  return `/m${desktopPath}`;
}

/** The desktop path of a mobile path: `/m/d-x` → `/d-x`, `/m` → `/`. */
export function desktopPathOf(pathname: string): string {
  if (pathname === '/m' || pathname === '/m/') return '/';
  if (pathname.startsWith('/m/')) return pathname.slice(2);
  return pathname;
}

export function isMobilePath(pathname: string): boolean {
  return pathname === '/m' || pathname.startsWith('/m/');
}

export const projectPath = (id: string) => `/d-${id}`;
export const userPath = (url: string, tab?: string) => `/user/${encodeURIComponent(url)}${tab ? `/${tab}` : ''}`;
export const tagPath = (slug: string) => `/newest?tag=${encodeURIComponent(slug)}`;
export const collectionPath = (name: string) => `/collection/${encodeURIComponent(name)}`;
/** A member's own collection: `/user/{url}/collections/{slug}`. */
export const memberCollectionPath = (url: string, slug: string) => `${userPath(url, 'collections')}/${encodeURIComponent(slug)}`;

/** A feed's address: the site's newest (`/newest/feed.xml`), a tag page's (`?tag=`), a member's. */
export const feedPath = (source: { kind: 'newest' } | { kind: 'tag'; slug: string } | { kind: 'member'; url: string }) =>
  source.kind === 'newest' ? '/newest/feed.xml' : source.kind === 'tag' ? `/newest/feed.xml?tag=${encodeURIComponent(source.slug)}` : `${userPath(source.url)}/feed.xml`;

/** Query parameters that choose what a page shows; any other names the same page. */
const CONTENT_PARAMS = ['id', 'q', 'tag', 'sort', 'page'];

/** The query of a page's canonical address: its content parameters in a fixed order, `page=1` left out. */
export function canonicalSearch(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of CONTENT_PARAMS) {
    const value = params.get(name);
    if (value !== null && value !== '' && !(name === 'page' && value === '1')) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `?${query}` : '';
}

/** The address of page `page` of the list at `url`, its other parameters kept (page 1 without `page`). */
export function pageHref(url: URL, page: number): string {
  const target = new URL(url);
  if (page <= 1) target.searchParams.delete('page');
  else target.searchParams.set('page', String(page));
  return target.pathname + target.search;
}
