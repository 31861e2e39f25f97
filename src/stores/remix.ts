import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { fail, type Notice } from '../lib/notice.ts';

export interface RemixState {
  busy: boolean;
  error: Notice | null;
}

/**
 * The "Remix" button: asks `project/remix` for a draft of the member's own and answers its id,
 * or null when refused (`error` says why, e.g. `remix_not_allowed`).
 */
export function createRemix(projectId: string) {
  const $remix = map<RemixState>({ busy: false, error: null });

  async function remix(): Promise<string | null> {
    if ($remix.get().busy) return null;
    $remix.set({ busy: true, error: null });
    try {
      const draft = await apiCall<{ id: string }>('project/remix', { id: projectId });
      // Busy until the form opens: a second press would make a second draft.
      return draft.id;
    } catch (error) {
      $remix.set({ busy: false, error: fail(error) });
      return null;
    }
  }

  return { $remix, remix };
}
