import { map } from 'nanostores';

export interface ConfirmState<T> {
  /** What the open question is about (the draft, the video, the make); null while nothing is asked. */
  asking: T | null;
  /** The confirmed action runs: the dialog waits, and confirming again does nothing. */
  busy: boolean;
}

export interface ConfirmActionOptions<T> {
  /** The call made once confirmed (`make/del`, `temporary/del`, …); it throws when it fails. */
  act: (target: T) => Promise<unknown>;
  /** It succeeded: the owner shows what changed (the list without it, a message) or sends the browser on. */
  done?: (target: T) => void;
  /** It failed: the owner says why (the question is closed by then). */
  failed?: (error: unknown, target: T) => void;
  /**
   * The one thing there is to act on (a make, a project, the log being edited): `ask()` needs no
   * argument, and `confirm()` acts on it even when nothing was asked first.
   */
  subject?: T | null;
  /**
   * `done` sends the browser to another page: the question stays open and busy until the page
   * goes, so it cannot be confirmed again meanwhile.
   */
  leaves?: boolean;
}

/**
 * "Ask, then act once confirmed": the state of a confirmation dialog (what it asks about,
 * whether the action runs) and its three actions, for every store that deletes something only
 * after asking. While the action runs, a second confirm (a double click) and cancel are ignored;
 * once it has finished, successfully or not, the question is closed.
 */
export function createConfirmAction<T>(options: ConfirmActionOptions<T>) {
  const $confirm = map<ConfirmState<T>>({ asking: null, busy: false });

  /** Opens the question about `target` (by default the subject); not while the action runs. */
  function ask(target?: T): void {
    const asking = target ?? options.subject ?? null;
    if (asking === null || $confirm.get().busy) return;
    $confirm.set({ asking, busy: false });
  }

  /** Closes the question without acting; not while the action runs. */
  function cancel(): void {
    if (!$confirm.get().busy) $confirm.set({ asking: null, busy: false });
  }

  /** Acts on what was asked about (else on the subject); answers whether it was done. */
  async function confirm(): Promise<boolean> {
    const { asking, busy } = $confirm.get();
    const target = asking ?? options.subject ?? null;
    if (target === null || busy) return false;
    $confirm.set({ asking, busy: true });
    try {
      await options.act(target);
    } catch (error) {
      $confirm.set({ asking: null, busy: false });
      options.failed?.(error, target);
      return false;
    }
    if (!options.leaves) $confirm.set({ asking: null, busy: false });
    options.done?.(target);
    return true;
  }

  return { $confirm, ask, cancel, confirm };
}

export type ConfirmAction<T> = ReturnType<typeof createConfirmAction<T>>;
