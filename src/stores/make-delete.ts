import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { fail, type Notice } from '../lib/notice.ts';

export interface MakeDeleteState {
  /** The deletion is being confirmed. */
  confirming: boolean;
  busy: boolean;
  error: Notice | null;
}

/** A maker deleting their make after confirming (`make/del`); `onDeleted` then shows the page without it. */
export function createMakeDelete(makeId: number, onDeleted: () => void) {
  const $delete = map<MakeDeleteState>({ confirming: false, busy: false, error: null });

  function ask(): void {
    $delete.set({ confirming: true, busy: false, error: null });
  }

  function cancel(): void {
    $delete.setKey('confirming', false);
  }

  async function confirm(): Promise<void> {
    $delete.set({ ...$delete.get(), busy: true, error: null });
    try {
      await apiCall('make/del', { id: makeId });
      $delete.set({ confirming: false, busy: false, error: null });
      onDeleted();
    } catch (error) {
      $delete.set({ confirming: false, busy: false, error: fail(error) });
    }
  }

  return { $delete, ask, cancel, confirm };
}
