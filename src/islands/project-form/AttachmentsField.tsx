import { useStore } from '@nanostores/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import type { Locale } from '../../lib/i18n.ts';
import { noticeText } from '../../lib/notice.ts';
import type { ProjectFormStore } from '../../stores/project-form.ts';
import { FieldError } from '../shared/FieldError.tsx';
import { useFileDrop } from '../shared/use-file-drop.ts';
import { describedBy, type FieldIds } from './field-ids.ts';
import { useHydrated } from '../use-hydrated.ts';

/** Attachments: drop or choose files; each uploads with a progress bar, can be cancelled, retried or removed. */
export function AttachmentsField({ form, ids, locale, videosPath }: { form: ProjectFormStore; ids: FieldIds; locale: string; videosPath?: string | undefined }) {
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const { files, errors } = useStore(form.$form);
  const drop = useFileDrop((dropped) => {
    form.addAttachments(dropped);
    return true;
  });
  const input = useRef<HTMLInputElement>(null);
  return (
    <section className="card form-section" aria-labelledby={ids('files')}>
      <h2 id={ids('files')}>{t('form.attachments')}</h2>
      <div className={`drop-zone${drop.dragging ? ' dragging' : ''}`} {...drop.handlers}>
        <p>{t('form.dropFiles')}</p>
        <button type="button" className="btn" id={ids('attachments')} onClick={() => input.current?.click()} disabled={!hydrated} aria-describedby={describedBy(ids, errors, 'attachments')}>
          {t('form.addFiles')}
        </button>
        <p className="hint" id={ids('attachments-hint')}>
          {t('form.attachmentsHint')}
        </p>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="attachment-input"
          onChange={(event) => {
            const chosen = [...(event.target.files ?? [])];
            event.target.value = '';
            form.addAttachments(chosen);
          }}
        />
      </div>
      <FieldError id={ids('attachments')} notice={errors.attachments} />
      {files.length > 0 && (
        <ul className="upload-list" aria-label={t('form.attachments')}>
          {files.map((item) => (
            <li key={item.key} className={`upload-row ${item.status}`}>
              <div className="upload-name">
                <strong>{item.name}</strong> <span className="muted">{formatBytes(item.size, locale as Locale)}</span>
              </div>
              {item.status === 'uploading' && (
                <div className="upload-progress">
                  <progress max={1} value={item.progress} aria-label={t('form.uploadingFile', { name: item.name })} />
                  <span aria-hidden="true">{Math.round(item.progress * 100)} %</span>
                </div>
              )}
              {item.status === 'done' && <span className="upload-state">{t('form.uploaded')}</span>}
              {item.status === 'error' && (
                <span className="upload-state error" role="alert">
                  {item.error ? noticeText(item.error, t) : ''}
                  {item.isVideo && videosPath && (
                    <>
                      {' '}
                      <a href={videosPath}>{t('form.goToVideos')}</a>
                    </>
                  )}
                </span>
              )}
              <div className="upload-actions">
                {item.status === 'error' && form.canRetry(item.key) && (
                  <button type="button" className="btn btn-small" onClick={() => form.retryFile(item.key)}>
                    {t('common.retry')}
                  </button>
                )}
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => form.removeFile(item.key)}
                  aria-label={t(item.status === 'uploading' ? 'form.cancelUpload' : 'form.removeFile', { name: item.name })}
                >
                  {item.status === 'uploading' ? t('common.cancel') : t('form.remove')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
