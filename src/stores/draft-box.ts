import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { DraftItem } from '../lib/api-types.ts';
import { fail, say, type Notice } from '../lib/notice.ts';
import { createConfirmAction } from './confirm-action.ts';

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
  const deletion = createConfirmAction<DraftItem>({
    act: (draft) => apiCall('temporary/del', { id: draft.id }),
    done: (deleted) =>
      $drafts.set({
        ...$drafts.get(),
        drafts: $drafts.get().drafts.filter((draft) => draft.id !== deleted.id),
        message: say('drafts.deleted', { title: deleted.title || untitled }),
      }),
    failed: (error) => $drafts.setKey('message', fail(error)),
  });
  deletion.$confirm.listen(({ asking, busy }) => $drafts.set({ ...$drafts.get(), deleting: asking, busy }));

  return { $drafts, askDelete: deletion.ask, cancelDelete: deletion.cancel, confirmDelete: deletion.confirm };
}
