import { isPlaceName, type PlaceName } from '../../lib/places.ts';
import { loadHomeFollowing } from './home.ts';
import { notFound, ok, type PageContext, type PageLoader } from './page.ts';

export interface PlaceToRender {
  name: PlaceName;
  args: Record<string, unknown>;
  data: unknown;
}

/** What a place shows of the member beyond `locals`: loaded by the same function as its page's loader uses. */
function placeData(context: PageContext, name: PlaceName): Promise<unknown> | undefined {
  switch (name) {
    case 'home-following':
      return loadHomeFollowing(context.locals);
    default:
      return undefined;
  }
}

/**
 * The places of a guest page, for the member asking for it (`locals.fill`, set by the server's
 * page cache and never by a request). Not found, so that the page is rendered for them in full,
 * when it is not a fill, nobody is signed in (an expired cookie), or a place is unknown (a page
 * kept by an older version of the site).
 */
export const loadPlaces = (async (context) => {
  const fill = context.locals.fill;
  if (!fill || !context.locals.user) return notFound();
  const names: PlaceName[] = [];
  for (const place of fill.places) {
    if (!isPlaceName(place.name)) return notFound();
    names.push(place.name);
  }
  const data = await Promise.all(names.map((name) => placeData(context, name)));
  return ok({ places: fill.places.map((place, index): PlaceToRender => ({ name: names[index]!, args: place.args, data: data[index] })) });
}) satisfies PageLoader<unknown>;
