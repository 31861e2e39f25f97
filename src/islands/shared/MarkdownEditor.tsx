import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notice } from '../../lib/notice.ts';
import { PICTURE_TYPES } from '../../lib/pictures.ts';
import { FieldError } from './FieldError.tsx';
import { useEarlyInput } from './use-early-input.ts';
import { useFileDrop } from './use-file-drop.ts';
import { isImage, useMarkdownImages, type UploadAt } from './use-markdown-images.ts';

export interface MarkdownEditorProps {
  /** The textarea's id; its hint is `${id}-hint` and its error `${id}-error`. */
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The store's upload of pictures into the text at the caret. */
  uploadImages: UploadAt;
  /**
   * Where dropped files that are not pictures go (the project form's attachments). Without it
   * the editor takes only pictures, and leaves other files to the browser.
   */
  onOtherFiles?: (files: File[]) => void;
  maxLength: number;
  rows: number;
  error?: Notice;
  /** The words about this text: the field's and tabs' label, its placeholder and hint, and the preview's. */
  words: { label: string; tabs: string; placeholder: string; hint: string; preview: string; previewEmpty: string };
  /** Test ids of the preview and of the hidden picture input (the e2e tests find them by these). */
  testIds: { preview: string; imageInput?: string };
}

/**
 * A Markdown text with a live preview (side by side, or as Write/Preview tabs on narrow
 * screens): pictures pasted, dropped or inserted with the button upload into the text at the
 * caret. The project description and build logs are written in it.
 */
export function MarkdownEditor({ id, value, onChange, uploadImages: uploadAt, onOtherFiles, maxLength, rows, error, words, testIds }: MarkdownEditorProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  // Text typed before the editor's code arrived is the text.
  const textarea = useEarlyInput<HTMLTextAreaElement>(value, onChange);
  const imageInput = useRef<HTMLInputElement>(null);
  const { previewHtml, uploadImages, onPaste } = useMarkdownImages(textarea, value, uploadAt);

  // Pictures dropped go into the text; other files to `onOtherFiles`, or to the browser without it.
  const drop = useFileDrop((dropped) => {
    const images = dropped.filter(isImage);
    const others = onOtherFiles ? dropped.filter((file) => !isImage(file)) : [];
    if (images.length === 0 && others.length === 0) return false;
    uploadImages(images);
    onOtherFiles?.(others);
    return true;
  });

  return (
    <>
      <div className="md-tabs" role="tablist" aria-label={words.tabs}>
        <button type="button" role="tab" aria-selected={tab === 'write'} className="btn" onClick={() => setTab('write')}>
          {t('form.write')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'preview'} className="btn" onClick={() => setTab('preview')}>
          {t('form.preview')}
        </button>
      </div>
      <div className={`md-editor mode-${tab}`}>
        {/* The outline promises that the drop is taken: only an editor that takes every file shows it. */}
        <div className={`field md-write${drop.dragging && onOtherFiles ? ' dragging' : ''}`} {...drop.handlers}>
          <div className="md-toolbar">
            <label htmlFor={id}>{words.label}</label>
            <button type="button" className="btn btn-small" onClick={() => imageInput.current?.click()}>
              {t('form.insertImage')}
            </button>
            <input
              ref={imageInput}
              type="file"
              accept={PICTURE_TYPES}
              multiple
              hidden
              data-testid={testIds.imageInput}
              onChange={(event) => {
                const chosen = [...(event.target.files ?? [])];
                event.target.value = '';
                uploadImages(chosen);
              }}
            />
          </div>
          <textarea
            id={id}
            ref={textarea}
            className="md-input"
            rows={rows}
            value={value}
            maxLength={maxLength}
            onChange={(event) => onChange(event.target.value)}
            onPaste={onPaste}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            placeholder={words.placeholder}
          />
          <p className="hint" id={`${id}-hint`}>
            {words.hint}
          </p>
          <FieldError id={id} notice={error} />
        </div>
        <div className="md-preview" aria-label={words.preview} role="region">
          <p className="md-preview-label" aria-hidden="true">
            {words.preview}
          </p>
          {value.trim() ? <div className="prose" dangerouslySetInnerHTML={{ __html: previewHtml }} data-testid={testIds.preview} /> : <p className="muted">{words.previewEmpty}</p>}
        </div>
      </div>
    </>
  );
}
