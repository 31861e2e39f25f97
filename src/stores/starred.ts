import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

export interface StarredState {
  starred: boolean;
  busy: boolean;
  message: Notice | null;
}

/** One project on the owner's stars page: removing the star, and giving it back (undo). */
export function createStarred(projectId: string, title: string) {
  const $starred = map<StarredState>({ starred: true, busy: false, message: null });

  async function toggle(): Promise<void> {
    const { starred } = $starred.get();
    $starred.set({ starred, busy: true, message: null });
    try {
      if (starred) await apiCall('user/delStarProject', { id: projectId });
      else await apiCall('project/star', { id: projectId, value: true });
      $starred.set({ starred: !starred, busy: false, message: say(starred ? 'stars.removed' : 'stars.restored', { title }) });
    } catch (error) {
      $starred.set({ starred, busy: false, message: fail(error) });
    }
  }

  return { $starred, toggle };
}
