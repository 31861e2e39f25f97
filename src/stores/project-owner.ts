import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { fail, type Notice } from '../lib/notice.ts';
import { createConfirmAction } from './confirm-action.ts';

export interface ProjectOwnerState {
  /** The deletion is being confirmed. */
  confirming: boolean;
  busy: boolean;
  error: Notice | null;
}

/** The owner's actions on their project page: deleting it after confirming, then leaving for `afterDeleteHref`. */
export function createProjectOwner(projectId: string, afterDeleteHref: string) {
  const $owner = map<ProjectOwnerState>({ confirming: false, busy: false, error: null });
  const deletion = createConfirmAction({
    subject: projectId,
    act: (id) => apiCall('project/del', { id }),
    leaves: true,
    done: () => window.location.assign(afterDeleteHref),
    failed: (error) => $owner.setKey('error', fail(error)),
  });
  deletion.$confirm.listen(({ asking, busy }) => $owner.set({ ...$owner.get(), confirming: asking !== null, busy }));

  async function confirmDelete(): Promise<void> {
    $owner.setKey('error', null);
    await deletion.confirm();
  }

  // Not `deletion.ask` itself: as a click handler it would take the click event for its target.
  return { $owner, askDelete: () => deletion.ask(), cancelDelete: deletion.cancel, confirmDelete };
}
