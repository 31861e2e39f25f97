import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { LOG_BODY_MAX, LOG_TITLE_MAX } from '../lib/logs.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createLogEditor, type LogEditorInit } from '../stores/log-editor.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { FieldError } from './shared/FieldError.tsx';
import { MarkdownEditor } from './shared/MarkdownEditor.tsx';
import { useEarlyInput } from './shared/use-early-input.ts';
import { useIslandStore } from './use-island-store.ts';

export interface LogEditorProps extends Omit<LogEditorInit, 't' | 'destination'> {
  /** The log's page with `{n}` for its number (variant applied): where a saved log is shown. */
  logHref: string;
  /** The Logs tab (variant applied): where the browser goes after a delete. */
  logsHref: string;
  locale: string;
  messages: IslandMessages;
}

function Editor({ projectId, log = null, logHref, logsHref }: Omit<LogEditorProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const editor = useIslandStore(() => createLogEditor({ projectId, log, t, destination: (n) => (n === null ? logsHref : logHref.replace('{n}', String(n))) }));
  const { title, content, errors, busy, status, confirmingDelete } = useStore(editor.$editor);
  const id = useId();
  const editing = log !== null;

  // The editor starts when the reader reaches for it: a title typed before its code arrived is kept.
  const titleField = useEarlyInput<HTMLInputElement>(title, (value) => editor.setField('title', value));
  return (
    <form
      className="log-editor"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void editor.save();
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-title`}>{t('logs.editor.title')}</label>
        <input
          ref={titleField}
          id={`${id}-title`}
          value={title}
          maxLength={LOG_TITLE_MAX * 2}
          onChange={(event) => editor.setField('title', event.target.value)}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? `${id}-title-error` : undefined}
        />
        <FieldError id={`${id}-title`} notice={errors.title} />
      </div>
      <MarkdownEditor
        id={`${id}-content`}
        value={content}
        onChange={(value) => editor.setField('content', value)}
        uploadImages={editor.uploadImages}
        maxLength={LOG_BODY_MAX * 2}
        rows={12}
        error={errors.content}
        words={{
          label: t('logs.editor.body'),
          tabs: t('logs.editor.body'),
          placeholder: t('logs.editor.placeholder'),
          hint: t('logs.editor.hint'),
          preview: t('logs.editor.livePreview'),
          previewEmpty: t('logs.editor.previewEmpty'),
        }}
        testIds={{ preview: 'log-preview', imageInput: 'log-image-input' }}
      />
      {status && (
        <p className={isAlert(status) ? 'status-message error' : 'status-message'} role={isAlert(status) ? 'alert' : 'status'}>
          {noticeText(status, t)}
        </p>
      )}
      <div className="log-editor-actions">
        <button type="submit" className="btn btn-primary" disabled={busy !== null}>
          {busy === 'save' ? t('logs.editor.saving') : editing ? t('logs.editor.saveChanges') : t('logs.editor.publish')}
        </button>
        {editing && (
          <button type="button" className="btn btn-danger" onClick={editor.askDelete} disabled={busy !== null}>
            {t('logs.editor.delete')}
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirmingDelete}
        title={t('logs.editor.deleteTitle')}
        confirmLabel={t('logs.editor.deleteConfirm')}
        busyLabel={t('logs.editor.deleting')}
        busy={busy === 'delete'}
        danger
        onConfirm={() => void editor.confirmDelete()}
        onCancel={editor.cancelDelete}
      >
        <p>{t('logs.editor.deleteText', { title: log?.title ?? '' })}</p>
      </ConfirmDialog>
    </form>
  );
}

/**
 * The owner's build log form: a new log on the Logs tab, or editing (and deleting) one on its
 * page. Markdown with a live preview and pictures uploaded into the text, as in the description editor.
 */
export default function LogEditor({ locale, messages, ...props }: LogEditorProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Editor {...props} />
    </I18nProvider>
  );
}
