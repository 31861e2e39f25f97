/** Route metadata of seed-spec §2: layout and named middlewares per desktop route. */
export interface RouteMeta {
  /** Desktop pattern; `:name` matches one path segment. */
  pattern: string;
  layout: 'default' | 'user' | 'none';
  middleware: string[];
  /** Whether an `/m` mirror exists (every route but `/logout`). */
  mirror: boolean;
}

const route = (pattern: string, extra: Partial<RouteMeta> = {}): RouteMeta => ({
  pattern,
  layout: 'default',
  middleware: [],
  mirror: true,
  ...extra,
});

export const routeTable: RouteMeta[] = [
  route('/'),
  route('/d-:id'),
  route('/eda/:id'),
  route('/logout', { middleware: ['logout'], mirror: false, layout: 'none' }),
  route('/newest'),
  route('/search'),
  route('/video/player', { middleware: ['token'] }),
  route('/donation-list'),
  route('/preview'),
  route('/create/project', { middleware: ['auth'] }),
  route('/create/success', { middleware: ['auth'] }),
  route('/recommend'),
  route('/user/:url', { layout: 'user' }),
  route('/user/:url/stars', { layout: 'user' }),
  route('/user/:url/video', { layout: 'user' }),
  route('/user/:url/message', { layout: 'user' }),
  route('/user/:url/profile', { layout: 'user' }),
  route('/user/:url/draftbox', { layout: 'user' }),
  route('/collection/:name'),
];

const compiled = routeTable.map((meta) => ({
  meta,
  regex: new RegExp(`^${meta.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/g, '([^/]+)')}/?$`),
}));

/** The metadata of a desktop path, or undefined when no route of the table matches. */
export function matchRoute(desktopPath: string): RouteMeta | undefined {
  return compiled.find((entry) => entry.regex.test(desktopPath))?.meta;
}
