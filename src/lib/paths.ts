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
