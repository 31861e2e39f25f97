import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { fail, type Notice } from '../lib/notice.ts';

/** A staff page's list, the action running on it, and what the last action said. */
export interface StaffListState<T> {
  items: T[];
  busy: boolean;
  /** What the last action did, or why it failed. */
  notice: Notice | null;
  /** The failed action's field errors (field → `validation.<key>`). */
  fields: Record<string, string>;
}

/**
 * The shared part of every staff page's store: the list as the server rendered it, and `run`,
 * which calls one `admin/…` endpoint, puts its answer into the list and says what happened.
 * One action at a time: a second is refused while one runs.
 */
export function createStaffList<T>(items: T[]) {
  const $list = map<StaffListState<T>>({ items, busy: false, notice: null, fields: {} });

  /**
   * Calls `admin/<path>` with `body`; on success `apply` makes the new list from the answer and
   * `done` is announced. Answers whether it succeeded.
   */
  async function run<R>(path: string, body: Record<string, unknown>, apply: (result: R, items: T[]) => T[], done: Notice): Promise<boolean> {
    if ($list.get().busy) return false;
    $list.set({ ...$list.get(), busy: true, notice: null, fields: {} });
    try {
      const result = await apiCall<R>(`admin/${path}`, body);
      $list.set({ items: apply(result, $list.get().items), busy: false, notice: done, fields: {} });
      return true;
    } catch (error) {
      const fields = error instanceof ApiError && error.fields ? error.fields : {};
      $list.set({ ...$list.get(), busy: false, notice: fail(error), fields });
      return false;
    }
  }

  /** Says something without calling anything (a check that failed before sending); null clears it. */
  function tell(notice: Notice | null, fields: Record<string, string> = {}): void {
    $list.set({ ...$list.get(), notice, fields });
  }

  return { $list, run, tell };
}

export type StaffList<T> = ReturnType<typeof createStaffList<T>>;

/** `list` with the item at `index` moved by `delta` places (kept within the list). */
export function moveItem<T>(list: readonly T[], index: number, delta: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, index + delta));
  const next = [...list];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(target, 0, item);
  return next;
}

/**
 * A project's id from what staff paste: the id itself, or its page's address
 * (`https://…/d-abc123`, `/m/d-abc123?x`). Null when it is neither.
 */
export function projectIdFrom(text: string): string | null {
  const value = text.trim();
  const fromPath = /\/d-([A-Za-z0-9_-]{1,64})(?:[/?#]|$)/.exec(value);
  if (fromPath) return fromPath[1]!;
  return /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
}
