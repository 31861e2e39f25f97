import { useStore } from '@nanostores/react';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_MAX } from '../../lib/contract/project-limits.ts';
import { IMAGE_TYPES, type ProjectFormStore } from '../../stores/project-form.ts';
import { isImage, useMarkdownImages } from '../shared/use-markdown-images.ts';
import { describedBy, FieldError, type FieldIds } from './FieldError.tsx';

/**
 * The Markdown description with a live preview (side by side, or as tabs on narrow screens);
 * images pasted, dropped or inserted upload into the text, other dropped files become attachments.
 */
export function DescriptionField({ form, ids }: { form: ProjectFormStore; ids: FieldIds }) {
  const { t } = useTranslation();
  const { fields, errors } = useStore(form.$form);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [dragging, setDragging] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const { previewHtml, uploadImages, onPaste } = useMarkdownImages(textarea, fields.description, form.uploadImages);
  const onDrop = (event: DragEvent<HTMLElement>) => {
    const dropped = [...event.dataTransfer.files];
    setDragging(false);
    if (dropped.length === 0) return;
    event.preventDefault();
    uploadImages(dropped.filter(isImage));
    form.addAttachments(dropped.filter((file) => !isImage(file)));
  };

  return (
    <section className="card form-section" aria-labelledby={ids('description-heading')}>
      <h2 id={ids('description-heading')}>{t('form.description')}</h2>
      <div className="md-tabs" role="tablist" aria-label={t('form.description')}>
        <button type="button" role="tab" aria-selected={tab === 'write'} className="btn" onClick={() => setTab('write')}>
          {t('form.write')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'preview'} className="btn" onClick={() => setTab('preview')}>
          {t('form.preview')}
        </button>
      </div>
      <div className={`md-editor mode-${tab}`}>
        <div
          className={`field md-write${dragging ? ' dragging' : ''}`}
          onDragOver={(event) => {
            if ([...event.dataTransfer.types].includes('Files')) {
              event.preventDefault();
              setDragging(true);
            }
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <div className="md-toolbar">
            <label htmlFor={ids('description')}>{t('form.markdown')}</label>
            <button type="button" className="btn btn-small" onClick={() => imageInput.current?.click()}>
              {t('form.insertImage')}
            </button>
            <input
              ref={imageInput}
              type="file"
              accept={IMAGE_TYPES}
              multiple
              hidden
              onChange={(event) => {
                const chosen = [...(event.target.files ?? [])];
                event.target.value = '';
                uploadImages(chosen);
              }}
            />
          </div>
          <textarea
            id={ids('description')}
            ref={textarea}
            className="md-input"
            rows={18}
            value={fields.description}
            maxLength={DESCRIPTION_MAX}
            onChange={(event) => form.setField('description', event.target.value)}
            onPaste={onPaste}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={describedBy(ids, errors, 'description')}
            placeholder={t('form.descriptionPlaceholder')}
          />
          <p className="hint" id={ids('description-hint')}>
            {t('form.descriptionHint')}
          </p>
          <FieldError ids={ids} name="description" notice={errors.description} />
        </div>
        <div className="md-preview" aria-label={t('form.livePreview')} role="region">
          <p className="md-preview-label" aria-hidden="true">
            {t('form.livePreview')}
          </p>
          {fields.description.trim() ? (
            <div className="prose" dangerouslySetInnerHTML={{ __html: previewHtml }} data-testid="live-preview" />
          ) : (
            <p className="muted">{t('form.previewEmpty')}</p>
          )}
        </div>
      </div>
    </section>
  );
}
