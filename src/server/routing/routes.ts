/**
 * The one route table: every page route with its named middlewares (run in order before the page)
 * and whether `/m` serves it in the mobile layout. `/m/x` is never a file of its own: the
 * middleware rewrites it to `/x` with `locals.variant = 'mobile'`.
 */
import { PROJECT_TABS } from '../../lib/project-tabs.ts';

export interface RouteMeta {
  /** Desktop pattern; `:name` matches one path segment. */
  pattern: string;
  middleware: string[];
  /** Whether `/m` + pattern serves this page in the mobile layout. */
  mobile: boolean;
  /**
   * Whether a member's page is the guest page with its places filled for them
   * (`src/server/page-cache/places.ts`): every difference a member sees is inside a `MemberPlace`.
   */
  fillable: boolean;
}

const route = (pattern: string, extra: Partial<RouteMeta> = {}): RouteMeta => ({
  pattern,
  middleware: [],
  mobile: true,
  fillable: false,
  ...extra,
});

export const routeTable: RouteMeta[] = [
  route('/', { fillable: true }),
  route('/d-:id', { fillable: true }),
  // Each tab by name, so that other paths under a project (its `feed.xml`) are not pages.
  ...PROJECT_TABS.filter((tab) => tab !== 'overview').map((tab) => route(`/d-:id/${tab}`)),
  route('/d-:id/log/:n'),
  route('/d-:id/versions/compare'),
  route('/eda/:id'),
  route('/logout', { middleware: ['logout'] }),
  route('/newest', { fillable: true }),
  route('/search', { fillable: true }),
  route('/video/player', { middleware: ['token'] }),
  route('/donation-list'),
  route('/support'),
  route('/support/thanks'),
  route('/preview'),
  route('/create/project', { middleware: ['auth'] }),
  route('/create/success', { middleware: ['auth'] }),
  route('/recommend', { fillable: true }),
  route('/feed'),
  route('/user/:url'),
  route('/user/:url/stars'),
  route('/user/:url/collections'),
  route('/user/:url/collections/:slug'),
  route('/user/:url/makes'),
  route('/user/:url/video'),
  route('/user/:url/message'),
  route('/user/:url/profile'),
  route('/user/:url/draftbox'),
  route('/user/:url/notifications'),
  route('/collection/:name'),
  route('/admin'),
  route('/admin/reports'),
  route('/admin/audit'),
  route('/admin/banners'),
  route('/admin/collections'),
  route('/admin/recommendations'),
  route('/admin/tags'),
];

const compiled = routeTable.map((meta) => ({
  meta,
  regex: new RegExp(`^${meta.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/g, '([^/]+)')}/?$`),
}));

/** The metadata of a desktop path, or undefined when no route of the table matches. */
export function matchRoute(desktopPath: string): RouteMeta | undefined {
  return compiled.find((entry) => entry.regex.test(desktopPath))?.meta;
}
