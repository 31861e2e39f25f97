import type { TFunction } from 'i18next';
import { errorMessage, fieldMessage } from './contract/errors.ts';

type Values = Record<string, unknown>;

/**
 * Something an island tells the user, kept by its store as a message key (and the failure that
 * caused it) and put into words only where it is shown, in the reader's language.
 */
export type Notice =
  /** One of the island's own messages. `alert` shows it as an error (role="alert"). */
  | { key: string; values?: Values; alert?: boolean }
  /** A failed call, worded by `errorMessage`: alone, or as the `{{reason}}` of `key`. */
  | { error: unknown; key?: string; values?: Values }
  /** A field's validation key (`validation.<field>`), or the island's more specific `key` for it. */
  | { field: string; key?: string };

/** A notice with one of the island's messages. */
export function say(key: string, values?: Values): Notice {
  return values ? { key, values } : { key };
}

/** A notice shown as an error, with one of the island's messages. */
export function warn(key: string, values?: Values): Notice {
  return values ? { key, values, alert: true } : { key, alert: true };
}

/** A notice about a failed call: the error's words, inside `key` as `{{reason}}` when given. */
export function fail(error: unknown, key?: string, values?: Values): Notice {
  return key ? { error, key, ...(values ? { values } : {}) } : { error };
}

/**
 * A notice that a field's value is not accepted: `key` is a validation key (`too_big`);
 * `wording`, when the island's locale file has it, says it more precisely for this field.
 */
export function invalid(key: string, wording?: string): Notice {
  return wording ? { field: key, key: wording } : { field: key };
}

/** Whether the notice reports a problem (shown with role="alert"). */
export function isAlert(notice: Notice | null | undefined): boolean {
  return Boolean(notice && ('error' in notice || 'field' in notice || notice.alert));
}

/** The words of a notice in the reader's language. */
export function noticeText(notice: Notice, t: TFunction): string {
  if ('field' in notice) return notice.key ? t(notice.key, { defaultValue: fieldMessage(notice.field, t) }) : fieldMessage(notice.field, t);
  if ('error' in notice) {
    const reason = errorMessage(notice.error, t);
    return notice.key ? t(notice.key, { ...notice.values, reason }) : reason;
  }
  return t(notice.key, notice.values ?? {});
}
