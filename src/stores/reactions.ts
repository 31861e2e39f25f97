import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

export type Reaction = 'star' | 'like';

/** A project's star and like as the viewer sees them. */
export interface ReactionCounts {
  starred: boolean;
  liked: boolean;
  starCount: number;
  likeCount: number;
}

export interface ReactionsState extends ReactionCounts {
  /** The reaction whose change the server has not answered yet. */
  pending: Reaction | null;
  message: Notice | null;
}

export interface ReactionsInit extends ReactionCounts {
  projectId: string;
  signedIn: boolean;
  /** Sign-in addresses that come back with `?intent=star` / `?intent=like`. */
  signInUrls: Record<Reaction, string>;
}

/** The counts once `kind` is set to `value`, before the server answers (never below zero). */
export function reacted(counts: ReactionCounts, kind: Reaction, value: boolean): ReactionCounts {
  const step = (was: boolean) => (value === was ? 0 : value ? 1 : -1);
  return kind === 'star'
    ? { ...counts, starred: value, starCount: Math.max(0, counts.starCount + step(counts.starred)) }
    : { ...counts, liked: value, likeCount: Math.max(0, counts.likeCount + step(counts.liked)) };
}

const countsOf = ({ starred, liked, starCount, likeCount }: ReactionCounts): ReactionCounts => ({ starred, liked, starCount, likeCount });

/** Shows the island's numbers in the counters the server rendered on the page (the stats grid). */
function publishCounts(counts: ReactionCounts): void {
  const format = new Intl.NumberFormat(document.documentElement.lang);
  for (const element of document.querySelectorAll<HTMLElement>('[data-project-count]')) {
    if (element.dataset.projectCount === 'stars') element.textContent = format.format(counts.starCount);
    if (element.dataset.projectCount === 'likes') element.textContent = format.format(counts.likeCount);
  }
}

/**
 * Star and like of one project: changed at once (optimistic), confirmed by the server or rolled
 * back with the reason; guests are sent to sign in and the press is finished when they return.
 */
export function createReactions({ projectId, signedIn, signInUrls, ...counts }: ReactionsInit) {
  const $reactions = map<ReactionsState>({ ...countsOf(counts), pending: null, message: null });

  async function apply(kind: Reaction, value: boolean): Promise<void> {
    const before = countsOf($reactions.get());
    $reactions.set({ ...$reactions.get(), ...reacted(before, kind, value), pending: kind, message: null });
    try {
      const answer =
        kind === 'star'
          ? await apiCall<{ starred: boolean; starCount: number }>('project/star', { id: projectId, value })
          : await apiCall<{ liked: boolean; likeCount: number }>('project/like', { id: projectId, value });
      $reactions.set({ ...$reactions.get(), ...answer, pending: null, message: say(`reactions.${kind}${value ? 'Done' : 'Undone'}`) });
    } catch (error) {
      if (error instanceof ApiError && error.retCode === 401) {
        window.location.assign(signInUrls[kind]);
        return;
      }
      // Back to what the server last confirmed, saying why.
      $reactions.set({ ...$reactions.get(), ...before, pending: null, message: fail(error, `reactions.${kind}Failed`) });
    }
  }

  /** The star or like button was pressed: toggles it, or sends a guest to sign in. */
  function press(kind: Reaction): void {
    if (!signedIn) {
      window.location.assign(signInUrls[kind]);
      return;
    }
    const state = $reactions.get();
    void apply(kind, kind === 'star' ? !state.starred : !state.liked);
  }

  /** Live in the browser: mirrors the counts into the page and finishes a guest's `?intent=`. */
  function start(): () => void {
    const stop = $reactions.subscribe(publishCounts);
    const url = new URL(window.location.href);
    const intent = url.searchParams.get('intent');
    if (intent === 'star' || intent === 'like') {
      url.searchParams.delete('intent');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
      const state = $reactions.get();
      if (signedIn && !(intent === 'star' ? state.starred : state.liked)) void apply(intent, true);
      else if (signedIn) $reactions.setKey('message', say(`reactions.${intent}Done`));
    }
    return stop;
  }

  return { $reactions, press, start };
}
