import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { DraftItem } from '../lib/api-types.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

export interface DraftBoxState {
  drafts: DraftItem[];
  /** The draft whose deletion is being confirmed. */
  deleting: DraftItem | null;
  busy: boolean;
  message: Notice | null;
}

/**
 * The owner's draft box: deleting a draft after confirming. `untitled` is how a draft without a
 * title is named in messages.
 */
export function createDraftBox(drafts: DraftItem[], untitled: string) {
  const $drafts = map<DraftBoxState>({ drafts, deleting: null, busy: false, message: null });

  function askDelete(draft: DraftItem): void {
    $drafts.setKey('deleting', draft);
  }

  function cancelDelete(): void {
    $drafts.setKey('deleting', null);
  }

  async function confirmDelete(): Promise<void> {
    const { deleting } = $drafts.get();
    if (!deleting) return;
    $drafts.setKey('busy', true);
    try {
      await apiCall('temporary/del', { id: deleting.id });
      const drafts = $drafts.get().drafts.filter((draft) => draft.id !== deleting.id);
      $drafts.set({ drafts, deleting: null, busy: false, message: say('drafts.deleted', { title: deleting.title || untitled }) });
    } catch (error) {
      $drafts.set({ ...$drafts.get(), deleting: null, busy: false, message: fail(error) });
    }
  }

  return { $drafts, askDelete, cancelDelete, confirmDelete };
}
