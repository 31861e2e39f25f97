import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { fail, type Notice } from '../lib/notice.ts';

export interface ProjectOwnerState {
  /** The deletion is being confirmed. */
  confirming: boolean;
  busy: boolean;
  error: Notice | null;
}

/** The owner's actions on their project page: deleting it after confirming, then leaving for `afterDeleteHref`. */
export function createProjectOwner(projectId: string, afterDeleteHref: string) {
  const $owner = map<ProjectOwnerState>({ confirming: false, busy: false, error: null });

  function askDelete(): void {
    $owner.setKey('confirming', true);
  }

  function cancelDelete(): void {
    $owner.setKey('confirming', false);
  }

  async function confirmDelete(): Promise<void> {
    $owner.set({ ...$owner.get(), busy: true, error: null });
    try {
      await apiCall('project/del', { id: projectId });
      window.location.assign(afterDeleteHref);
    } catch (error) {
      $owner.set({ confirming: false, busy: false, error: fail(error) });
    }
  }

  return { $owner, askDelete, cancelDelete, confirmDelete };
}
