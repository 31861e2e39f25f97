import type { TFunction } from 'i18next';
import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { LogEntry } from '../lib/contract/schemas/logs.ts';
import { LOG_BODY_MAX, LOG_TITLE_MAX } from '../lib/logs.ts';
import { uploadMarkdownImages } from './markdown-images.ts';
import { fail, invalid, warn, type Notice } from '../lib/notice.ts';
import { countCharacters } from '../lib/text.ts';
import { createConfirmAction } from './confirm-action.ts';

export type LogField = 'title' | 'content';

export interface LogEditorInit {
  /** The project's public id. */
  projectId: string;
  /** Set when editing: the log's number, title and Markdown. */
  log?: { n: number; title: string; content: string } | null;
  /** Where the browser goes once saved or deleted (a path with the variant applied): given the saved log's number, or null after a delete. */
  destination: (n: number | null) => string;
  t: TFunction;
}

export interface LogEditorState {
  title: string;
  content: string;
  errors: Partial<Record<LogField, Notice>>;
  busy: 'save' | 'delete' | null;
  /** A failure not tied to a field, or a picture left out. */
  status: Notice | null;
  confirmingDelete: boolean;
}

/** What is wrong with a field before sending, in the same words the server's refusal gets. */
export function logFieldProblem(field: LogField, value: string): Notice | undefined {
  const text = field === 'title' ? value.replace(/\s+/g, ' ').trim() : value.trim();
  if (!text) return invalid('required', `logs.editor.errors.${field}.required`);
  if (countCharacters(text) > (field === 'title' ? LOG_TITLE_MAX : LOG_BODY_MAX)) return invalid('too_big', `logs.editor.errors.${field}.too_big`);
  return undefined;
}

/**
 * The build log form of a project's owner: a new log on the Logs tab, or editing one on its page
 * (and deleting it after confirming). Checks the fields before sending, puts the server's field
 * refusals under their fields, uploads pictures into the Markdown as the description editor does,
 * and goes to the log's page once saved.
 */
export function createLogEditor(init: LogEditorInit) {
  const $editor = map<LogEditorState>({
    title: init.log?.title ?? '',
    content: init.log?.content ?? '',
    errors: {},
    busy: null,
    status: null,
    confirmingDelete: false,
  });
  const get = () => $editor.get();
  const update = (patch: Partial<LogEditorState>) => $editor.set({ ...get(), ...patch });

  function setField(field: LogField, value: string): void {
    update({ [field]: value, errors: { ...get().errors, [field]: undefined } });
  }

  /** Uploads pictures into the Markdown at the selection; returns where the caret goes. */
  function uploadImages(list: File[], selection: { start: number; end: number }): number | null {
    return uploadMarkdownImages(list, selection, {
      read: () => get().content,
      write: (value) => update({ content: value }),
      notify: (status) => update({ status }),
      t: init.t,
    });
  }

  /** Sends the log; true once saved (the browser is then on its way to the log's page). */
  async function save(): Promise<boolean> {
    const { title, content, busy } = get();
    if (busy) return false;
    const errors: LogEditorState['errors'] = {};
    for (const field of ['title', 'content'] as const) {
      const problem = logFieldProblem(field, field === 'title' ? title : content);
      if (problem) errors[field] = problem;
    }
    if (errors.title || errors.content) {
      update({ errors, status: null });
      return false;
    }
    if (content.includes('](#upload-')) {
      update({ status: warn('logs.editor.stillUploading') });
      return false;
    }
    update({ busy: 'save', errors: {}, status: null });
    try {
      const saved = await apiCall<LogEntry>('log/save', { id: init.projectId, title, content, ...(init.log ? { n: init.log.n } : {}) });
      window.location.assign(init.destination(saved.n));
      return true;
    } catch (error) {
      const fields = error instanceof ApiError && error.errorKey === 'validation' ? error.fields ?? {} : {};
      const fieldErrors: LogEditorState['errors'] = {};
      for (const field of ['title', 'content'] as const) {
        if (fields[field]) fieldErrors[field] = invalid(fields[field]!, `logs.editor.errors.${field}.${fields[field]}`);
      }
      const named = Boolean(fieldErrors.title || fieldErrors.content);
      update({ busy: null, errors: fieldErrors, status: named ? null : fail(error, 'logs.editor.saveFailed') });
      return false;
    }
  }

  const deletion = createConfirmAction({
    subject: init.log,
    act: (log) => apiCall<{ n: number }>('log/del', { id: init.projectId, n: log.n }),
    leaves: true,
    done: () => window.location.assign(init.destination(null)),
    failed: (error) => update({ status: fail(error, 'logs.editor.deleteFailed') }),
  });
  // The form's one `busy` says whether it saves or deletes; the deleting part is the confirmation's.
  deletion.$confirm.listen(({ asking, busy }) => {
    const saving = get().busy === 'save';
    update({ confirmingDelete: asking !== null, busy: busy ? 'delete' : saving ? 'save' : null });
  });

  function askDelete(): void {
    update({ status: null });
    deletion.ask();
  }

  /** Deletes the log being edited; true once deleted (the browser then goes to the Logs tab). */
  async function confirmDelete(): Promise<boolean> {
    return get().busy === 'save' ? false : deletion.confirm();
  }

  return { $editor, setField, uploadImages, save, askDelete, cancelDelete: deletion.cancel, confirmDelete };
}

export type LogEditorStore = ReturnType<typeof createLogEditor>;
