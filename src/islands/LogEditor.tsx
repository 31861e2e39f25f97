import { useStore } from '@nanostores/react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { LOG_BODY_MAX, LOG_TITLE_MAX } from '../lib/logs.ts';
import { IMAGE_TYPES } from '../stores/markdown-images.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createLogEditor, type LogEditorInit } from '../stores/log-editor.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { isImage, useMarkdownImages } from './shared/use-markdown-images.ts';
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
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const { previewHtml, uploadImages, onPaste } = useMarkdownImages(textarea, content, editor.uploadImages);
  const editing = log !== null;

  const onDrop = (event: DragEvent<HTMLElement>) => {
    const images = [...event.dataTransfer.files].filter(isImage);
    if (images.length === 0) return;
    event.preventDefault();
    uploadImages(images);
  };

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
          id={`${id}-title`}
          value={title}
          maxLength={LOG_TITLE_MAX * 2}
          onChange={(event) => editor.setField('title', event.target.value)}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? `${id}-title-error` : undefined}
        />
        {errors.title && (
          <p className="error" id={`${id}-title-error`}>
            {noticeText(errors.title, t)}
          </p>
        )}
      </div>
      <div className="md-tabs" role="tablist" aria-label={t('logs.editor.body')}>
        <button type="button" role="tab" aria-selected={tab === 'write'} className="btn" onClick={() => setTab('write')}>
          {t('logs.editor.write')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'preview'} className="btn" onClick={() => setTab('preview')}>
          {t('logs.editor.preview')}
        </button>
      </div>
      <div className={`md-editor mode-${tab}`}>
        <div className="field md-write" onDragOver={(event) => [...event.dataTransfer.types].includes('Files') && event.preventDefault()} onDrop={onDrop}>
          <div className="md-toolbar">
            <label htmlFor={`${id}-content`}>{t('logs.editor.body')}</label>
            <button type="button" className="btn btn-small" onClick={() => imageInput.current?.click()}>
              {t('logs.editor.insertImage')}
            </button>
            <input
              ref={imageInput}
              type="file"
              accept={IMAGE_TYPES}
              multiple
              hidden
              data-testid="log-image-input"
              onChange={(event) => {
                const chosen = [...(event.target.files ?? [])];
                event.target.value = '';
                uploadImages(chosen);
              }}
            />
          </div>
          <textarea
            id={`${id}-content`}
            ref={textarea}
            className="md-input"
            rows={12}
            value={content}
            maxLength={LOG_BODY_MAX * 2}
            onChange={(event) => editor.setField('content', event.target.value)}
            onPaste={onPaste}
            aria-invalid={errors.content ? true : undefined}
            aria-describedby={`${id}-content-hint${errors.content ? ` ${id}-content-error` : ''}`}
            placeholder={t('logs.editor.placeholder')}
          />
          <p className="hint" id={`${id}-content-hint`}>
            {t('logs.editor.hint')}
          </p>
          {errors.content && (
            <p className="error" id={`${id}-content-error`}>
              {noticeText(errors.content, t)}
            </p>
          )}
        </div>
        <div className="md-preview" aria-label={t('logs.editor.livePreview')} role="region">
          <p className="md-preview-label" aria-hidden="true">
            {t('logs.editor.livePreview')}
          </p>
          {content.trim() ? <div className="prose" dangerouslySetInnerHTML={{ __html: previewHtml }} data-testid="log-preview" /> : <p className="muted">{t('logs.editor.previewEmpty')}</p>}
        </div>
      </div>
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
