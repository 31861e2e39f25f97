import { isPlaceName, type PlaceName } from '../../lib/places.ts';
import type { PlaceCall } from '../page-cache/places.ts';
import { hasRole, isEmailUnverified } from '../services/accounts/index.ts';
import { findMemberProjectState } from '../services/projects/index.ts';
import { commentOptionsFrom, loadProjectComments } from './comments.ts';
import { loadHomeFollowing } from './home.ts';
import { notFound, ok, type PageContext, type PageLoader } from './page.ts';
import { countView } from './project.ts';
import type { PublishedProjectRef } from '../services/core/index.ts';

export interface PlaceToRender {
  name: PlaceName;
  args: Record<string, unknown>;
  data: unknown;
}

/**
 * Whether the member may have this page filled in from the guest's: not on a project page that
 * is theirs or that staff see otherwise (owner controls, hidden content), nor when the project
 * remixes one only they may see.
 */
function mayFill(context: PageContext, places: PlaceCall[]): boolean {
  const user = context.locals.user!;
  for (const place of places) {
    if (place.name !== 'project-view') continue;
    if (place.args.ownerUrl === user.url || hasRole(user.role, 'moderator') || place.args.originalHidden === true) return false;
  }
  return true;
}

/** A project as found (`PublishedProjectRef`) from a place's arguments, or null. */
function foundRef(value: unknown): PublishedProjectRef | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, ownerId, remixOfId } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(ownerId)) return null;
  return { id: id as number, ownerId: ownerId as number, remixOfId: typeof remixOfId === 'number' ? remixOfId : null };
}

/**
 * The places of a guest page, for the member asking for it (`locals.fill`, set by the server's
 * page cache and never by a request), with what each shows of them, loaded by the functions their
 * page's loader uses. Not found, so that the page is rendered for them in full, when it is not a
 * fill, nobody is signed in (an expired cookie), a place is unknown (a page kept by an older
 * version of the site), or the page is one they see otherwise (`mayFill`).
 */
export const loadPlaces = (async (context) => {
  const fill = context.locals.fill;
  const user = context.locals.user;
  if (!fill || !user) return notFound();
  const names: PlaceName[] = [];
  for (const place of fill.places) {
    if (!isPlaceName(place.name)) return notFound();
    names.push(place.name);
  }
  if (!mayFill(context, fill.places)) return notFound();
  // One look at each project the places are about, shared by its places.
  const states = new Map<string, ReturnType<typeof findMemberProjectState>>();
  const stateOf = (projectId: string) => {
    let state = states.get(projectId);
    if (!state) states.set(projectId, (state = findMemberProjectState(projectId, user.id)));
    return state;
  };
  const data = await Promise.all(
    fill.places.map(async (place, index): Promise<unknown> => {
      const projectId = String(place.args.projectId ?? '');
      switch (names[index]) {
        case 'home-following':
          return loadHomeFollowing(context.locals);
        case 'project-view':
          countView(context, projectId);
          return undefined;
        case 'project-actions': {
          const state = await stateOf(projectId);
          return { starred: state.starred, liked: state.liked, following: state.following, isOwner: state.ref.ownerId === user.id };
        }
        case 'comments': {
          // The project as the guest page found it, when its marks say: the comments start now,
          // beside the member's state (which still decides whether they see the project at all).
          const ref = foundRef(place.args.found) ?? (await stateOf(projectId)).ref;
          const [comments, mustConfirmEmail] = await Promise.all([
            loadProjectComments({ publicId: projectId, found: ref }, user.id, commentOptionsFrom(context.locals.url)),
            isEmailUnverified(user.id),
          ]);
          return { comments, mustConfirmEmail };
        }
        default:
          return undefined;
      }
    }),
  );
  return ok({ places: fill.places.map((place, index): PlaceToRender => ({ name: names[index]!, args: place.args, data: data[index] })) });
}) satisfies PageLoader<unknown>;
