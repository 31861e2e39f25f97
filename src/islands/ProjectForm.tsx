import { lazy, Suspense, useDeferredValue, useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { formatBytes } from '../lib/format.ts';
import type { Locale } from '../lib/i18n.ts';
import { LICENCES } from '../lib/licences.ts';
import { renderPreview } from '../lib/markdown-preview.ts';
import { uploadFile, type UploadHandle } from '../lib/upload-client.ts';
import type { AuthState } from '../stores/auth.ts';
import { I18nProvider } from './i18n.tsx';
import { useAuth } from './use-auth.ts';

// cropperjs runs only in the browser: the cropper is loaded when a cover is chosen.
const ImageCropper = lazy(() => import('./ImageCropper.tsx'));

/** Limits the server enforces too (src/server/services/project-content.ts, uploads.ts). */
const TITLE_MAX = 120;
const SUMMARY_MAX = 300;
const DESCRIPTION_MAX = 100_000;
const TAGS_MAX = 5;
const ATTACHMENTS_MAX = 20;
const ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;
const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif';

export interface FormTag {
  slug: string;
  name: string;
  children: FormTag[];
}

export interface FormFile {
  id: string;
  name: string;
  mime: string;
  size: number;
}

export interface ProjectFormSource {
  draftId: string | null;
  projectId: string | null;
  content: { title: string; summary: string; description: string; cover: string | null; tags: string[]; licence: string; attachments: string[] };
  files: FormFile[];
  updatedAt: string | null;
}

export interface ProjectFormProps {
  locale: string;
  auth: AuthState | null;
  source: ProjectFormSource;
  tags: FormTag[];
  /** `/create/success` in the page's variant. */
  successPath: string;
  /** `/create/project` in the page's variant (the URL is updated once a new draft exists). */
  formPath: string;
}

interface Fields {
  title: string;
  summary: string;
  description: string;
  cover: string | null;
  tags: string[];
  licence: string;
}

interface FileItem {
  key: string;
  id: string | null;
  name: string;
  size: number;
  progress: number;
  status: 'uploading' | 'done' | 'error';
  error?: string;
}

type FieldName = keyof Fields | 'attachments';
type Errors = Partial<Record<FieldName, string>>;
type Busy = null | 'draft' | 'preview' | 'publish';

interface LocalCopy {
  v: 1;
  savedAt: string;
  draftId: string | null;
  projectId: string | null;
  fields: Fields;
  files: FormFile[];
}

const STORAGE_PREFIX = 'copperhub:project-form:';
const storageKey = (projectId: string | null, draftId: string | null) =>
  STORAGE_PREFIX + (projectId ? `project:${projectId}` : draftId ? `draft:${draftId}` : 'new');

function readLocal(key: string): LocalCopy | null {
  try {
    const raw = window.localStorage.getItem(key);
    const copy = raw ? (JSON.parse(raw) as LocalCopy) : null;
    return copy && copy.v === 1 && copy.fields ? copy : null;
  } catch {
    return null;
  }
}

function writeLocal(key: string, copy: LocalCopy | null) {
  try {
    if (copy) window.localStorage.setItem(key, JSON.stringify(copy));
    else window.localStorage.removeItem(key);
  } catch {
    // storage full or disabled: the server copy is all there is
  }
}

const snapshot = (fields: Fields, files: FormFile[]) => JSON.stringify({ fields, files: files.map((file) => file.id) });
const doneFiles = (items: FileItem[]): FormFile[] =>
  items.filter((item) => item.status === 'done' && item.id).map((item) => ({ id: item.id!, name: item.name, mime: '', size: item.size }));
const fieldsOf = (source: ProjectFormSource): Fields => ({
  title: source.content.title,
  summary: source.content.summary,
  description: source.content.description,
  cover: source.content.cover,
  tags: source.content.tags,
  licence: source.content.licence,
});
let keyCounter = 0;
const nextKey = () => `f${Date.now().toString(36)}${(keyCounter += 1)}`;
const itemsOf = (list: FormFile[]): FileItem[] => list.map((file) => ({ key: nextKey(), id: file.id, name: file.name, size: file.size, progress: 1, status: 'done' }));

/**
 * The project creation and edit form: title, summary, cropped cover, Markdown description with
 * live preview and pasted/dropped images, tags, licence and attachments with upload progress;
 * save draft, preview, publish. Everything typed is kept in localStorage until the server has
 * it, and leaving with unsaved changes asks first.
 */
export default function ProjectForm(props: ProjectFormProps) {
  return (
    <I18nProvider locale={props.locale}>
      <Form {...props} />
    </I18nProvider>
  );
}

function Form({ locale, auth: initialAuth, source, tags, successPath, formPath }: ProjectFormProps) {
  const { t } = useTranslation();
  const auth = useAuth(initialAuth);
  const formId = useId();
  const ids = (name: string) => `${formId}-${name}`;
  const [fields, setFields] = useState<Fields>(() => fieldsOf(source));
  const [files, setFiles] = useState<FileItem[]>(() => itemsOf(source.files));
  const [draftId, setDraftId] = useState(source.draftId);
  const projectId = source.projectId;
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<Busy>(null);
  const [status, setStatus] = useState<{ text: string; error?: boolean; link?: string } | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const [coverBusy, setCoverBusy] = useState<number | null>(null);
  const [cropSource, setCropSource] = useState<Blob | null>(null);
  const [mounted, setMounted] = useState(false);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [dragging, setDragging] = useState(false);
  const savedSnapshot = useRef(snapshot(fields, doneFiles(files)));
  const uploads = useRef(new Map<string, { handle?: UploadHandle; file?: File }>());
  const leaving = useRef(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const coverInput = useRef<HTMLInputElement>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fieldRefs = useRef<Partial<Record<FieldName, HTMLElement | null>>>({});

  const current = snapshot(fields, doneFiles(files));
  const dirty = current !== savedSnapshot.current;
  const uploading = files.some((file) => file.status === 'uploading') || coverBusy !== null;
  const key = storageKey(projectId, draftId);
  const deferredDescription = useDeferredValue(fields.description);
  const previewHtml = useMemo(() => (mounted ? renderPreview(deferredDescription) : ''), [mounted, deferredDescription]);
  const timeFormat = useMemo(() => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }), [locale]);

  // Restore what was typed but never saved (a reload, a crash, a lost connection).
  useEffect(() => {
    setMounted(true);
    const copy = readLocal(storageKey(source.projectId, source.draftId));
    if (!copy) return;
    const newer = !source.updatedAt || copy.savedAt > source.updatedAt;
    if (!newer || snapshot(copy.fields, copy.files) === savedSnapshot.current) return;
    setFields(copy.fields);
    setFiles(itemsOf(copy.files));
    setRestored(copy.savedAt);
  }, []);

  // Autosave locally while there are changes the server does not have.
  useEffect(() => {
    if (!mounted) return;
    const timer = window.setTimeout(() => {
      writeLocal(key, dirty ? { v: 1, savedAt: new Date().toISOString(), draftId, projectId, fields, files: doneFiles(files) } : null);
    }, 300);
    return () => window.clearTimeout(timer);
  }, [mounted, key, dirty, fields, files, draftId, projectId]);

  // Leaving with unsaved changes (or uploads running) asks first.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current || (!dirty && !uploading)) return;
      if (dirty) writeLocal(key, { v: 1, savedAt: new Date().toISOString(), draftId, projectId, fields, files: doneFiles(files) });
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, uploading, key, draftId, projectId, fields, files]);

  const setField = <K extends keyof Fields>(name: K, value: Fields[K]) => {
    setFields((previous) => ({ ...previous, [name]: value }));
    setErrors((previous) => (previous[name] ? { ...previous, [name]: undefined } : previous));
  };

  const errorText = (field: FieldName, key: string) =>
    t(`form.errors.${field}.${key}`, { defaultValue: t(`validation.${key}`, { defaultValue: t('validation.invalid') }) });
  const apiErrorText = (error: unknown) =>
    error instanceof ApiError ? t(`errors.${error.errorKey}`, { defaultValue: t('errors.internal') }) : t('errors.internal');

  function discardRestored() {
    writeLocal(key, null);
    setFields(fieldsOf(source));
    setFiles(itemsOf(source.files));
    setRestored(null);
  }

  // ---- cover -------------------------------------------------------------------------------
  function chooseCover(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > IMAGE_MAX_BYTES) {
      setErrors((previous) => ({ ...previous, cover: t('form.errors.cover.tooLarge') }));
      return;
    }
    setCropSource(file);
  }

  async function uploadCover(blob: Blob) {
    setCropSource(null);
    setCoverBusy(0);
    setErrors((previous) => ({ ...previous, cover: undefined }));
    try {
      const result = await uploadFile(blob, { purpose: 'cover', name: 'cover.jpg', token: auth.token, onProgress: (p) => setCoverBusy(p) }).promise;
      setField('cover', result.url);
    } catch (error) {
      setErrors((previous) => ({ ...previous, cover: apiErrorText(error) }));
    } finally {
      setCoverBusy(null);
    }
  }

  // ---- description images ------------------------------------------------------------------
  function insertText(text: string) {
    const element = textarea.current;
    const value = fields.description;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    const before = value.slice(0, start);
    const spacer = before && !before.endsWith('\n') ? '\n' : '';
    const inserted = `${spacer}${text}\n`;
    setField('description', before + inserted + value.slice(end));
    requestAnimationFrame(() => {
      if (!element) return;
      const caret = start + inserted.length;
      element.focus();
      element.setSelectionRange(caret, caret);
    });
  }

  function uploadImages(list: File[]) {
    for (const file of list) {
      const id = nextKey();
      const alt = file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '') || t('form.imageAlt');
      const placeholder = `![${t('form.uploadingImage', { name: alt })}](#upload-${id})`;
      if (file.size > IMAGE_MAX_BYTES) {
        setStatus({ text: t('form.imageTooLarge', { name: file.name }), error: true });
        continue;
      }
      insertText(placeholder);
      uploadFile(file, { purpose: 'image', name: file.name, token: auth.token })
        .promise.then((result) => {
          setFields((previous) => ({ ...previous, description: previous.description.replace(placeholder, `![${alt}](${result.url})`) }));
        })
        .catch((error: unknown) => {
          setFields((previous) => ({ ...previous, description: previous.description.replace(`${placeholder}\n`, '').replace(placeholder, '') }));
          setStatus({ text: t('form.imageFailed', { name: file.name, reason: apiErrorText(error) }), error: true });
        });
    }
  }

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const images = [...event.clipboardData.files].filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return;
    event.preventDefault();
    uploadImages(images);
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    const dropped = [...event.dataTransfer.files];
    setDragging(false);
    if (dropped.length === 0) return;
    event.preventDefault();
    uploadImages(dropped.filter((file) => file.type.startsWith('image/')));
    addAttachments(dropped.filter((file) => !file.type.startsWith('image/')));
  }

  // ---- attachments -------------------------------------------------------------------------
  function startUpload(item: FileItem, file: File) {
    const handle = uploadFile(file, {
      purpose: 'attachment',
      name: file.name,
      token: auth.token,
      onProgress: (progress) => setFiles((list) => list.map((entry) => (entry.key === item.key ? { ...entry, progress } : entry))),
    });
    uploads.current.set(item.key, { handle, file });
    handle.promise
      .then((result) => {
        setFiles((list) => list.map((entry) => (entry.key === item.key ? { ...entry, id: result.id, name: result.name, size: result.size, progress: 1, status: 'done' } : entry)));
        setErrors((previous) => ({ ...previous, attachments: undefined }));
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.errorKey === 'aborted') return;
        const reason =
          error instanceof ApiError && error.errorKey === 'unsupported_type' ? t('form.fileUnsupported') : error instanceof ApiError && error.errorKey === 'too_large' ? t('form.fileTooLarge') : apiErrorText(error);
        setFiles((list) => list.map((entry) => (entry.key === item.key ? { ...entry, status: 'error', error: reason } : entry)));
      });
  }

  function addAttachments(list: File[]) {
    if (list.length === 0) return;
    const room = ATTACHMENTS_MAX - files.length;
    if (room <= 0) {
      setErrors((previous) => ({ ...previous, attachments: t('form.errors.attachments.too_big') }));
      return;
    }
    const accepted = list.slice(0, room);
    const items = accepted.map((file) => {
      const item: FileItem = { key: nextKey(), id: null, name: file.name, size: file.size, progress: 0, status: 'uploading' };
      if (file.size > ATTACHMENT_MAX_BYTES) return { ...item, status: 'error' as const, error: t('form.fileTooLarge') };
      if (file.size === 0) return { ...item, status: 'error' as const, error: t('form.fileEmpty') };
      return item;
    });
    setFiles((previous) => [...previous, ...items]);
    items.forEach((item, index) => {
      if (item.status === 'uploading') startUpload(item, accepted[index]!);
    });
  }

  function removeFile(item: FileItem) {
    uploads.current.get(item.key)?.handle?.abort();
    uploads.current.delete(item.key);
    setFiles((list) => list.filter((entry) => entry.key !== item.key));
  }

  function retryFile(item: FileItem) {
    const file = uploads.current.get(item.key)?.file;
    if (!file) return;
    const fresh = { ...item, progress: 0, status: 'uploading' as const, error: undefined };
    setFiles((list) => list.map((entry) => (entry.key === item.key ? fresh : entry)));
    startUpload(fresh, file);
  }

  // ---- saving ------------------------------------------------------------------------------
  const payload = () => ({ ...fields, attachments: doneFiles(files).map((file) => file.id) });

  function showErrors(next: Errors) {
    setErrors(next);
    const first = (['title', 'summary', 'cover', 'description', 'tags', 'licence', 'attachments'] as FieldName[]).find((name) => next[name]);
    if (first) fieldRefs.current[first]?.focus();
  }

  function fieldErrorsOf(error: unknown): Errors | null {
    if (!(error instanceof ApiError) || !error.fields) return null;
    const next: Errors = {};
    for (const [path, fieldKey] of Object.entries(error.fields)) {
      const field = path.split('.')[0] as FieldName;
      next[field] ??= errorText(field, fieldKey);
    }
    return next;
  }

  function checkUploads(): boolean {
    if (!uploading) return true;
    setStatus({ text: t('form.waitForUploads'), error: true });
    return false;
  }

  async function saveDraft() {
    if (!checkUploads()) return;
    setBusy('draft');
    setStatus(null);
    try {
      const body = { ...payload(), publish: false, ...(draftId ? { draftId } : {}) };
      const result = projectId
        ? await apiCall<{ id: string }>('release/editProject', { ...body, id: projectId })
        : await apiCall<{ id: string }>('release/saveProject', body);
      writeLocal(key, null);
      savedSnapshot.current = current;
      setDraftId(result.id);
      setErrors({});
      setRestored(null);
      if (!projectId && !draftId) window.history.replaceState(window.history.state, '', `${formPath}?draft=${encodeURIComponent(result.id)}`);
      setStatus({ text: t('form.draftSaved', { time: timeFormat.format(new Date()) }) });
    } catch (error) {
      const fieldErrors = fieldErrorsOf(error);
      if (fieldErrors) showErrors(fieldErrors);
      setStatus({ text: fieldErrors ? t('form.fixErrors') : t('form.saveFailed', { reason: apiErrorText(error) }), error: true });
    } finally {
      setBusy(null);
    }
  }

  async function preview() {
    if (!checkUploads()) return;
    // Opened now, while the click still counts as a user gesture; filled in once saved.
    const win = window.open('', '_blank');
    setBusy('preview');
    setStatus(null);
    try {
      const result = await apiCall<{ id: string; url: string }>('release/savePreview', { ...payload(), ...(projectId ? { projectId } : {}) });
      if (win) {
        win.opener = null;
        win.location.href = result.url;
        setStatus({ text: t('form.previewOpened'), link: result.url });
      } else {
        setStatus({ text: t('form.previewReady'), link: result.url });
      }
    } catch (error) {
      win?.close();
      const fieldErrors = fieldErrorsOf(error);
      if (fieldErrors) showErrors(fieldErrors);
      setStatus({ text: fieldErrors ? t('form.fixErrors') : t('form.previewFailed', { reason: apiErrorText(error) }), error: true });
    } finally {
      setBusy(null);
    }
  }

  async function publish() {
    const missing: Errors = {};
    if (!fields.title.trim()) missing.title = errorText('title', 'required');
    if (!fields.licence) missing.licence = errorText('licence', 'required');
    if (files.some((file) => file.status === 'error')) missing.attachments = t('form.errors.attachments.failed');
    if (Object.keys(missing).length) {
      showErrors(missing);
      setStatus({ text: t('form.fixErrors'), error: true });
      return;
    }
    if (!checkUploads()) return;
    setBusy('publish');
    setStatus(null);
    try {
      const body = { ...payload(), publish: true, ...(draftId ? { draftId } : {}) };
      const result = projectId
        ? await apiCall<{ id: string }>('release/editProject', { ...body, id: projectId })
        : await apiCall<{ id: string }>('release/saveProject', body);
      writeLocal(key, null);
      leaving.current = true;
      window.location.assign(`${successPath}?id=${encodeURIComponent(result.id)}${projectId ? '&updated=1' : ''}`);
    } catch (error) {
      const fieldErrors = fieldErrorsOf(error);
      if (fieldErrors) showErrors(fieldErrors);
      setStatus({ text: fieldErrors ? t('form.fixErrors') : t('form.publishFailed', { reason: apiErrorText(error) }), error: true });
      setBusy(null);
    }
  }

  const described = (name: FieldName, hint?: boolean) =>
    [hint ? ids(`${name}-hint`) : '', errors[name] ? ids(`${name}-error`) : ''].filter(Boolean).join(' ') || undefined;
  const fieldError = (name: FieldName) =>
    errors[name] ? (
      <p className="error" id={ids(`${name}-error`)}>
        {errors[name]}
      </p>
    ) : null;

  return (
    <form
      className="project-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void publish();
      }}
      aria-busy={busy !== null}
    >
      {/* Disabled until hydrated: nothing typed or pressed before that could be lost. */}
      <fieldset className="form-fieldset" disabled={!mounted}>
      {restored && (
        <div className="form-notice" role="status">
          <p>{t('form.restored', { time: new Date(restored).toLocaleString(locale) })}</p>
          <button type="button" className="btn" onClick={discardRestored}>
            {t('form.discardRestored')}
          </button>
        </div>
      )}
      {projectId && <p className="form-notice muted">{t('form.editingNotice')}</p>}

      <section className="card form-section" aria-labelledby={ids('basics')}>
        <h2 id={ids('basics')}>{t('form.basics')}</h2>
        <div className="field">
          <label htmlFor={ids('title')}>
            {t('form.title')} <span className="required-mark">{t('form.required')}</span>
          </label>
          <input
            id={ids('title')}
            ref={(element) => {
              fieldRefs.current.title = element;
            }}
            value={fields.title}
            maxLength={TITLE_MAX}
            onChange={(event) => setField('title', event.target.value)}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={described('title', true)}
            placeholder={t('form.titlePlaceholder')}
            autoComplete="off"
          />
          <p className="hint" id={ids('title-hint')}>
            {t('form.counter', { used: fields.title.length, max: TITLE_MAX })}
          </p>
          {fieldError('title')}
        </div>
        <div className="field">
          <label htmlFor={ids('summary')}>{t('form.summary')}</label>
          <textarea
            id={ids('summary')}
            ref={(element) => {
              fieldRefs.current.summary = element;
            }}
            rows={2}
            value={fields.summary}
            maxLength={SUMMARY_MAX}
            onChange={(event) => setField('summary', event.target.value)}
            aria-invalid={errors.summary ? true : undefined}
            aria-describedby={described('summary', true)}
            placeholder={t('form.summaryPlaceholder')}
          />
          <p className="hint" id={ids('summary-hint')}>
            {t('form.summaryHint')} {t('form.counter', { used: fields.summary.length, max: SUMMARY_MAX })}
          </p>
          {fieldError('summary')}
        </div>
        <div className="field">
          <span className="label" id={ids('cover-label')}>
            {t('form.cover')}
          </span>
          <div className="cover-field">
            <div className="cover-box">
              {fields.cover ? <img src={fields.cover} alt={t('form.coverAlt')} width={320} height={240} /> : <span className="muted">{t('form.noCover')}</span>}
              {coverBusy !== null && (
                <div className="cover-progress">
                  <progress max={1} value={coverBusy} aria-label={t('form.coverUploading')} />
                </div>
              )}
            </div>
            <div className="cover-actions">
              <button
                type="button"
                className="btn"
                ref={(element) => {
                  fieldRefs.current.cover = element;
                }}
                onClick={() => coverInput.current?.click()}
                disabled={coverBusy !== null}
                aria-describedby={described('cover', true)}
              >
                {fields.cover ? t('form.changeCover') : t('form.uploadCover')}
              </button>
              {fields.cover && (
                <button type="button" className="btn" onClick={() => setField('cover', null)}>
                  {t('form.removeCover')}
                </button>
              )}
              <p className="hint" id={ids('cover-hint')}>
                {t('form.coverHint')}
              </p>
            </div>
            <input ref={coverInput} type="file" accept={IMAGE_TYPES} hidden onChange={chooseCover} aria-labelledby={ids('cover-label')} data-testid="cover-input" />
          </div>
          {fieldError('cover')}
        </div>
      </section>

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
              ref={(element) => {
                textarea.current = element;
                fieldRefs.current.description = element;
              }}
              className="md-input"
              rows={18}
              value={fields.description}
              maxLength={DESCRIPTION_MAX}
              onChange={(event) => setField('description', event.target.value)}
              onPaste={onPaste}
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={described('description', true)}
              placeholder={t('form.descriptionPlaceholder')}
            />
            <p className="hint" id={ids('description-hint')}>
              {t('form.descriptionHint')}
            </p>
            {fieldError('description')}
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

      <section className="card form-section" aria-labelledby={ids('details')}>
        <h2 id={ids('details')}>{t('form.details')}</h2>
        <TagPicker
          id={ids('tags')}
          tree={tags}
          value={fields.tags}
          onChange={(value) => setField('tags', value)}
          error={errors.tags}
          inputRef={(element) => {
            fieldRefs.current.tags = element;
          }}
        />
        <div className="field">
          <label htmlFor={ids('licence')}>
            {t('form.licence')} <span className="required-mark">{t('form.required')}</span>
          </label>
          <select
            id={ids('licence')}
            ref={(element) => {
              fieldRefs.current.licence = element;
            }}
            value={fields.licence}
            onChange={(event) => setField('licence', event.target.value)}
            aria-invalid={errors.licence ? true : undefined}
            aria-describedby={described('licence', true)}
          >
            <option value="">{t('form.chooseLicence')}</option>
            {LICENCES.map((licence) => (
              <option key={licence.id} value={licence.id}>
                {licence.id} — {licence.name}
              </option>
            ))}
          </select>
          <p className="hint" id={ids('licence-hint')}>
            {t('form.licenceHint')}
          </p>
          {fieldError('licence')}
        </div>
      </section>

      <section className="card form-section" aria-labelledby={ids('files')}>
        <h2 id={ids('files')}>{t('form.attachments')}</h2>
        <div
          className={`drop-zone${dragging ? ' dragging' : ''}`}
          onDragOver={(event) => {
            if ([...event.dataTransfer.types].includes('Files')) {
              event.preventDefault();
              setDragging(true);
            }
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            addAttachments([...event.dataTransfer.files]);
          }}
        >
          <p>{t('form.dropFiles')}</p>
          <button
            type="button"
            className="btn"
            ref={(element) => {
              fieldRefs.current.attachments = element;
            }}
            onClick={() => fileInput.current?.click()}
            aria-describedby={described('attachments', true)}
          >
            {t('form.addFiles')}
          </button>
          <p className="hint" id={ids('attachments-hint')}>
            {t('form.attachmentsHint')}
          </p>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            data-testid="attachment-input"
            onChange={(event) => {
              const chosen = [...(event.target.files ?? [])];
              event.target.value = '';
              addAttachments(chosen);
            }}
          />
        </div>
        {fieldError('attachments')}
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
                    {item.error}
                  </span>
                )}
                <div className="upload-actions">
                  {item.status === 'error' && uploads.current.get(item.key)?.file && (
                    <button type="button" className="btn btn-small" onClick={() => retryFile(item)}>
                      {t('common.retry')}
                    </button>
                  )}
                  <button type="button" className="btn btn-small" onClick={() => removeFile(item)} aria-label={t(item.status === 'uploading' ? 'form.cancelUpload' : 'form.removeFile', { name: item.name })}>
                    {item.status === 'uploading' ? t('common.cancel') : t('form.remove')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="form-actions card">
        <p className={`status-message${status?.error ? ' error' : ''}`} role={status?.error ? 'alert' : 'status'} data-testid="form-status">
          {status?.text}
          {status?.link && (
            <>
              {' '}
              <a href={status.link} target="_blank" rel="noopener">
                {t('form.openPreview')}
              </a>
            </>
          )}
          {!status && dirty && mounted && <span className="muted">{t('form.unsaved')}</span>}
        </p>
        <div className="buttons">
          <button type="button" className="btn" onClick={() => void saveDraft()} disabled={busy !== null}>
            {busy === 'draft' ? t('form.saving') : t('form.saveDraft')}
          </button>
          <button type="button" className="btn" onClick={() => void preview()} disabled={busy !== null}>
            {busy === 'preview' ? t('form.previewing') : t('form.openPreviewButton')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy !== null}>
            {busy === 'publish' ? t('form.publishing') : projectId ? t('form.update') : t('form.publish')}
          </button>
        </div>
      </div>

      </fieldset>
      {cropSource && (
        <Suspense fallback={null}>
          <ImageCropper
            src={cropSource}
            aspectRatio={4 / 3}
            outputType="jpeg"
            outputQuality={0.92}
            locale={locale}
            onCrop={(blob) => void uploadCover(blob)}
            onCancel={() => setCropSource(null)}
            onError={() => {
              setCropSource(null);
              setErrors((previous) => ({ ...previous, cover: t('cropper.loadError') }));
            }}
          />
        </Suspense>
      )}
    </form>
  );
}

interface TagPickerProps {
  id: string;
  tree: FormTag[];
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
  inputRef: (element: HTMLInputElement | null) => void;
}

/** Tags: an autocompleting combobox over the two-level tag tree, chosen tags as removable chips. */
function TagPicker({ id, tree, value, onChange, error, inputRef }: TagPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const options = useMemo(
    () => tree.flatMap((root) => [{ slug: root.slug, name: root.name, parent: null as string | null }, ...root.children.map((child) => ({ slug: child.slug, name: child.name, parent: root.name }))]),
    [tree],
  );
  const names = useMemo(() => new Map(options.map((option) => [option.slug, option.name])), [options]);
  const needle = query.trim().toLowerCase();
  const matches = options
    .filter((option) => !value.includes(option.slug))
    .filter((option) => !needle || option.name.toLowerCase().includes(needle) || option.slug.includes(needle) || option.parent?.toLowerCase().includes(needle))
    .slice(0, 8);
  const full = value.length >= TAGS_MAX;
  const listId = `${id}-list`;

  function choose(slug: string) {
    if (full || value.includes(slug)) return;
    onChange([...value, slug]);
    setQuery('');
    setActive(0);
    setOpen(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((index) => Math.min(index + 1, Math.max(0, matches.length - 1)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter') {
      if (open && matches[active]) {
        event.preventDefault();
        choose(matches[active]!.slug);
      } else if (query) event.preventDefault();
    } else if (event.key === 'Escape') {
      setOpen(false);
    } else if (event.key === 'Backspace' && !query && value.length) {
      onChange(value.slice(0, -1));
    }
  }

  return (
    <div className="field tag-picker">
      <label htmlFor={id}>{t('form.tags')}</label>
      {value.length > 0 && (
        <ul className="chips" aria-label={t('form.chosenTags')}>
          {value.map((slug) => (
            <li key={slug}>
              <span className="chip chip-removable">
                {names.get(slug) ?? slug}
                <button type="button" onClick={() => onChange(value.filter((entry) => entry !== slug))} aria-label={t('form.removeTag', { name: names.get(slug) ?? slug })}>
                  ×
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="combobox">
        <input
          id={id}
          ref={inputRef}
          role="combobox"
          aria-expanded={open && matches.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && matches[active] ? `${listId}-${matches[active]!.slug}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          value={query}
          disabled={full}
          placeholder={full ? t('form.tagsFull') : t('form.tagsPlaceholder')}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => window.setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
          autoComplete="off"
        />
        {open && matches.length > 0 && (
          <ul className="combobox-list" role="listbox" id={listId} aria-label={t('form.tagSuggestions')}>
            {matches.map((option, index) => (
              <li
                key={option.slug}
                id={`${listId}-${option.slug}`}
                role="option"
                aria-selected={index === active}
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(option.slug);
                }}
                onMouseEnter={() => setActive(index)}
              >
                {option.name}
                {option.parent && <span className="muted"> · {option.parent}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="hint" id={`${id}-hint`}>
        {t('form.tagsHint', { used: value.length, max: TAGS_MAX })}
      </p>
      {error && (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
