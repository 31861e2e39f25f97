/** Structured data (schema.org JSON-LD) shared by the views: breadcrumbs and lists of projects. */
import { projectPath } from './paths.ts';

type Thing = Record<string, unknown>;

/** A `BreadcrumbList` of the trail to a page, each step an address on the site. */
export function breadcrumbList(origin: string, steps: { name: string; path: string }[]): Thing {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: steps.map((step, index) => ({ '@type': 'ListItem', position: index + 1, name: step.name, item: new URL(step.path, origin).toString() })),
  };
}

/**
 * An `ItemList` of the project cards a list page shows, positioned as on the page (`offset`
 * cards come before it on earlier pages).
 */
export function projectItemList(origin: string, projects: { id: string; title: string }[], total: number | undefined, offset = 0): Thing {
  return {
    '@type': 'ItemList',
    // An estimated total (a list past 1,000 projects) is no number of items to state.
    numberOfItems: total,
    itemListElement: projects.map((project, index) => ({ '@type': 'ListItem', position: offset + index + 1, url: new URL(projectPath(project.id), origin).toString(), name: project.title })),
  };
}
