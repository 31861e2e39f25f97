import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { fail, type Notice } from '../lib/notice.ts';
import { createConfirmAction } from './confirm-action.ts';

export interface MakeDeleteState {
  /** The deletion is being confirmed. */
  confirming: boolean;
  busy: boolean;
  error: Notice | null;
}

/** A maker deleting their make after confirming (`make/del`); `onDeleted` then shows the page without it. */
export function createMakeDelete(makeId: number, onDeleted: () => void) {
  const $delete = map<MakeDeleteState>({ confirming: false, busy: false, error: null });
  const deletion = createConfirmAction({
    subject: makeId,
    act: (id) => apiCall('make/del', { id }),
    done: onDeleted,
    failed: (error) => $delete.setKey('error', fail(error)),
  });
  deletion.$confirm.listen(({ asking, busy }) => $delete.set({ ...$delete.get(), confirming: asking !== null, busy }));

  function ask(): void {
    $delete.setKey('error', null);
    deletion.ask();
  }

  async function confirm(): Promise<void> {
    $delete.setKey('error', null);
    await deletion.confirm();
  }

  return { $delete, ask, cancel: deletion.cancel, confirm };
}
