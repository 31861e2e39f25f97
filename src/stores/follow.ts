import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { FollowStateInfo } from '../lib/contract/schemas/follows.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

export type FollowTargetKind = 'user' | 'project' | 'tag';

export interface FollowInit extends FollowStateInfo {
  kind: FollowTargetKind;
  /** A member's custom URL, a project's public id, a tag's slug. */
  target: string;
}

export interface FollowButtonState extends FollowStateInfo {
  pending: boolean;
  message: Notice | null;
}

/** The state once `following` is set to `value`, before the server answers (never below zero). */
export function followed(state: FollowStateInfo, value: boolean): FollowStateInfo {
  if (state.following === value) return state;
  return { following: value, followers: Math.max(0, state.followers + (value ? 1 : -1)) };
}

/**
 * A member's Follow button for one member, project or tag: changed at once (optimistic),
 * confirmed by the server with the real count, or put back with the reason. Guests never get
 * this store: their button is a sign-in link.
 */
export function createFollow({ kind, target, following, followers }: FollowInit) {
  const $follow = map<FollowButtonState>({ following, followers, pending: false, message: null });

  /** Toggles the follow; a second press while one is on its way is ignored. */
  async function press(): Promise<void> {
    const state = $follow.get();
    if (state.pending) return;
    const before = { following: state.following, followers: state.followers };
    const value = !state.following;
    $follow.set({ ...followed(before, value), pending: true, message: null });
    try {
      const answer = await apiCall<FollowStateInfo>('follow/set', { kind, target, value });
      $follow.set({ ...answer, pending: false, message: say(value ? 'follow.followed' : 'follow.unfollowed') });
    } catch (error) {
      $follow.set({ ...before, pending: false, message: fail(error, 'follow.failed') });
    }
  }

  return { $follow, press };
}
