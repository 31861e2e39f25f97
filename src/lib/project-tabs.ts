/** The tabs of a project's page: each has its own address, so it can be linked, cached and crawled. */
export const PROJECT_TABS = ['overview', 'logs', 'versions', 'makes'] as const;
export type ProjectTab = (typeof PROJECT_TABS)[number];

/** `/d-{id}` for the overview, `/d-{id}/{tab}` for the others (desktop path: wrap in `variantPath`). */
export function projectTabPath(id: string, tab: ProjectTab): string {
  return tab === 'overview' ? `/d-${id}` : `/d-${id}/${tab}`;
}

export function isProjectTab(value: string): value is ProjectTab {
  return (PROJECT_TABS as readonly string[]).includes(value);
}
