/**
 * The places a member's page may differ from the guest page in (`src/components/places/`): the
 * site header, the phone's tab bar, the guests' link prefetching, a project card's save button, the
 * Following section of the home page; on a project page, its view (counted, and who may have it
 * filled in), what a reader can do with it, the Report link and the comments.
 */
export const PLACE_NAMES = ['header', 'tabbar', 'prefetch', 'card-save', 'home-following', 'project-view', 'project-actions', 'report', 'comments'] as const;
export type PlaceName = (typeof PLACE_NAMES)[number];

export function isPlaceName(name: string): name is PlaceName {
  return (PLACE_NAMES as readonly string[]).includes(name);
}
