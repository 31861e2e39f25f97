import type { TFunction } from 'i18next';
import { computed, map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { ErrorKey } from '../lib/contract/errors.ts';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_MAX, FIRST_VERSION_NAME, VERSION_NAME_PATTERN } from '../lib/contract/project-limits.ts';
import { fail, invalid, say, warn, type Notice } from '../lib/notice.ts';
import { copyKey, copyToRestore, readCopy, snapshotOf, writeCopy, type FormFile, type ProjectFields } from '../lib/project-form-copy.ts';
import { uploadFile, type UploadHandle } from '../lib/upload-client.ts';
import { createImagePick } from './image-pick.ts';
import { uploadMarkdownImages } from './markdown-images.ts';

export type { FormFile, ProjectFields } from '../lib/project-form-copy.ts';


export interface FormTag {
  slug: string;
  name: string;
  children: FormTag[];
}

/** What the server renders the form from: a new form, a draft, or a published project to edit. */
export interface ProjectFormSource {
  draftId: string | null;
  projectId: string | null;
  content: ProjectFields & { attachments: string[] };
  files: FormFile[];
  updatedAt: string | null;
  /** The name of the published project's latest version (an edit without a new version amends it). */
  latestVersion?: string | null;
}

/** An attachment in the list: uploading (with progress), uploaded, or failed (with why). */
export interface FileItem {
  key: string;
  id: string | null;
  name: string;
  size: number;
  progress: number;
  status: 'uploading' | 'done' | 'error';
  error?: Notice;
  /** A refusal sending it again cannot change (its type, its size): no "Try again". */
  final?: boolean;
  /** A video among the design files: the row points to the member's Videos tab. */
  isVideo?: boolean;
}

export type FieldName = keyof ProjectFields | 'attachments' | 'version';
export type FieldErrors = Partial<Record<FieldName, Notice>>;
export type Busy = null | 'draft' | 'preview' | 'publish';

/** The fields in the order they are shown: the first with an error gets focus. */
export const FIELD_ORDER: readonly FieldName[] = ['title', 'summary', 'cover', 'description', 'tags', 'licence', 'attachments', 'version'];

/** The version a publication releases (see `versionToSend`). */
export interface VersionChoice {
  /** Editing a published project: release the edit as a new version (else it amends the latest). */
  release: boolean;
  name: string;
  notes: string;
}


/**
 * What `version` a publication sends: a first publication always names its version 1 (`v1`
 * when left empty); an edit sends one only when released as a new version, and none otherwise.
 */
export function versionToSend(editing: boolean, choice: VersionChoice): { name: string; notes: string } | undefined {
  if (!editing) return { name: choice.name.trim() || FIRST_VERSION_NAME, notes: choice.notes };
  return choice.release ? { name: choice.name.trim(), notes: choice.notes } : undefined;
}

export interface ProjectFormState {
  fields: ProjectFields;
  files: FileItem[];
  draftId: string | null;
  errors: FieldErrors;
  busy: Busy;
  status: { notice: Notice; link?: string } | null;
  /** When the restored local copy was saved (a notice offers to discard it). */
  restored: string | null;
  /** Upload progress of the cover (0…1) while it uploads. */
  coverProgress: number | null;
  /** The picture being cropped for the cover (the cropper is open while set). */
  cropSource: Blob | null;
  /** The form as the server has it (see `snapshotOf`). */
  savedSnapshot: string;
  /** The version this publication releases. */
  version: VersionChoice;
}

// Upload failures of attachments said in the form's own words.
const ATTACHMENT_FAILURES: Partial<Record<ErrorKey, string>> = { unsupported_type: 'form.fileUnsupported', too_large: 'form.fileTooLarge' };
/** Refusals of the file itself: sent again, it is refused again. */
const FINAL_FAILURES: ReadonlySet<ErrorKey> = new Set<ErrorKey>(['unsupported_type', 'too_large', 'validation', 'bad_request']);

let keyCounter = 0;
const nextKey = () => `f${Date.now().toString(36)}${(keyCounter += 1)}`;

const fieldsOf = ({ content }: ProjectFormSource): ProjectFields => ({
  title: content.title,
  summary: content.summary,
  description: content.description,
  cover: content.cover,
  tags: content.tags,
  licence: content.licence,
});

/** The list items of uploaded files. */
export const itemsOf = (list: FormFile[]): FileItem[] => list.map((file) => ({ key: nextKey(), id: file.id, name: file.name, size: file.size, progress: 1, status: 'done' }));

/** The uploaded files of the list (what is sent and kept). */
export const doneFiles = (items: FileItem[]): FormFile[] =>
  items.filter((item) => item.status === 'done' && item.id).map((item) => ({ id: item.id!, name: item.name, mime: '', size: item.size }));

/** A field error in the form's words when it has them (`form.errors.title.required`), else the general one. */
const fieldProblem = (field: FieldName, key: string) => invalid(key, `form.errors.${field}.${key}`);

/** The field errors of a refused save (`title.0` → title), the first per field. */
export function fieldErrorsOf(error: unknown): FieldErrors | null {
  if (!(error instanceof ApiError) || !error.fields) return null;
  const errors: FieldErrors = {};
  for (const [path, key] of Object.entries(error.fields)) {
    const field = path.split('.')[0] as FieldName;
    errors[field] ??= fieldProblem(field, key);
  }
  return errors;
}

/**
 * What stops publishing before asking the server: no title, no licence, failed uploads, a new
 * version without a name.
 */
export function publishProblems(fields: ProjectFields, files: FileItem[], version?: { editing: boolean; choice: VersionChoice }): FieldErrors {
  const errors: FieldErrors = {};
  if (!fields.title.trim()) errors.title = fieldProblem('title', 'required');
  if (!fields.licence) errors.licence = fieldProblem('licence', 'required');
  if (files.some((file) => file.status === 'error')) errors.attachments = warn('form.errors.attachments.failed');
  if (version?.editing && version.choice.release && !version.choice.name.trim()) errors.version = warn('form.version.nameRequired');
  else if (version && (!version.editing || version.choice.release) && version.choice.name.trim() && !VERSION_NAME_PATTERN.test(version.choice.name.trim())) {
    errors.version = fieldProblem('version', 'version_name');
  }
  return errors;
}

/** The first field with an error, in the order they are shown. */
export const firstInvalid = (errors: FieldErrors): FieldName | null => FIELD_ORDER.find((name) => errors[name]) ?? null;

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|webm|mkv|avi|wmv|3gp)$/i;

/** Whether a chosen file is a video (by the type the browser gives it, else by its name). */
function isVideoFile(file: { name: string; type?: string }): boolean {
  return Boolean(file.type?.startsWith('video/')) || VIDEO_EXTENSIONS.test(file.name);
}

/** New attachment items for `list` when `present` are already there: those past the limit are dropped. */
export function newAttachments(present: number, list: { name: string; size: number; type?: string }[]): FileItem[] | null {
  const room = ATTACHMENTS_MAX - present;
  if (room <= 0) return null;
  return list.slice(0, room).map((file) => {
    const item: FileItem = { key: nextKey(), id: null, name: file.name, size: file.size, progress: 0, status: 'uploading' };
    if (file.size > ATTACHMENT_MAX_BYTES) return { ...item, status: 'error', error: warn('form.fileTooLarge') };
    if (file.size === 0) return { ...item, status: 'error', error: warn('form.fileEmpty') };
    // Videos have their own upload (resumable, transcoded, played in the page), on the Videos tab.
    if (isVideoFile(file)) return { ...item, status: 'error', error: warn('form.fileIsVideo'), final: true, isVideo: true };
    return item;
  });
}

export interface ProjectFormInit {
  source: ProjectFormSource;
  locale: string;
  /** `/create/success` in the page's variant. */
  successPath: string;
  /** `/create/project` in the page's variant (the address is updated once a new draft exists). */
  formPath: string;
  /** For the words the form writes into the description itself (image placeholders). */
  t: TFunction;
}

/**
 * The project creation and edit form: fields, cover (through the shared image-pick steps), images
 * pasted or dropped into the description, attachments with progress, cancel and retry; save
 * draft, preview, publish. What the server does not have yet is kept in localStorage (autosave)
 * and restored after a reload; leaving with unsaved changes asks first.
 */
export function createProjectForm({ source, locale, successPath, formPath, t }: ProjectFormInit) {
  const projectId = source.projectId;
  const initialFiles = itemsOf(source.files);
  const $form = map<ProjectFormState>({
    fields: fieldsOf(source),
    files: initialFiles,
    draftId: source.draftId,
    errors: {},
    busy: null,
    status: null,
    restored: null,
    coverProgress: null,
    cropSource: null,
    savedSnapshot: snapshotOf(fieldsOf(source), doneFiles(initialFiles)),
    version: { release: false, name: projectId ? '' : FIRST_VERSION_NAME, notes: '' },
  });
  /** Changes the server does not have. */
  const $dirty = computed($form, (state) => snapshotOf(state.fields, doneFiles(state.files)) !== state.savedSnapshot);
  /** Uploads still running (saving waits for them). */
  const $uploading = computed($form, (state) => state.coverProgress !== null || state.files.some((file) => file.status === 'uploading'));
  const uploads = new Map<string, { handle?: UploadHandle; file?: File }>();
  const get = () => $form.get();
  const update = (patch: Partial<ProjectFormState>) => $form.set({ ...get(), ...patch });
  const key = () => copyKey(projectId, get().draftId);
  const timeFormat = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });

  function setField<K extends keyof ProjectFields>(name: K, value: ProjectFields[K]): void {
    const { fields, errors } = get();
    update({ fields: { ...fields, [name]: value }, errors: errors[name] ? { ...errors, [name]: undefined } : errors });
  }

  /** Changes the version choice (release or not, its name and notes). */
  function setVersion(patch: Partial<VersionChoice>): void {
    const { version, errors } = get();
    update({ version: { ...version, ...patch }, errors: errors.version ? { ...errors, version: undefined } : errors });
  }

  function setError(name: FieldName, notice: Notice | undefined): void {
    update({ errors: { ...get().errors, [name]: notice } });
  }

  function setFile(itemKey: string, patch: Partial<FileItem>): void {
    update({ files: get().files.map((entry) => (entry.key === itemKey ? { ...entry, ...patch } : entry)) });
  }

  /** Drops the restored copy and goes back to what the server rendered. */
  function discardRestored(): void {
    writeCopy(key(), null);
    update({ fields: fieldsOf(source), files: itemsOf(source.files), restored: null });
  }

  // ---- cover ----------------------------------------------------------------------------------
  // Picking, refusing a too large file, cropping and uploading are the shared image-pick steps; the form shows their state.
  const cover = createImagePick({ purpose: 'cover', tooLarge: warn('form.errors.cover.tooLarge') });
  cover.$pick.listen(({ cropSource, progress }) => update({ cropSource, coverProgress: progress }));
  const coverRefused = () => cover.$pick.get().error ?? undefined;

  /** A cover picture was chosen: too large ones are refused here, the rest go to the cropper. */
  function chooseCover(file: File | undefined): void {
    cover.pick(file);
    if (coverRefused()) setError('cover', coverRefused());
  }

  /** The cropper could not open the picture: the form closes it at once and says why beside the cover. */
  function cropFailed(): void {
    cover.cropFailed();
    cover.cancel();
    setError('cover', coverRefused());
  }

  async function uploadCover(blob: Blob): Promise<void> {
    setError('cover', undefined);
    const uploaded = await cover.upload(blob);
    if (uploaded) setField('cover', uploaded.url);
    else setError('cover', coverRefused());
  }

  // ---- description images -------------------------------------------------------------------
  /**
   * Uploads images into the description at the selection: a placeholder line at once, replaced
   * by the image once uploaded (or removed, saying why). Returns where the caret goes.
   */
  function uploadImages(list: File[], selection: { start: number; end: number }): number | null {
    return uploadMarkdownImages(list, selection, {
      read: () => get().fields.description,
      write: (value) => setField('description', value),
      notify: (notice) => update({ status: { notice } }),
      t,
    });
  }

  // ---- attachments --------------------------------------------------------------------------
  function startUpload(item: FileItem, file: File): void {
    const handle = uploadFile(file, { purpose: 'attachment', name: file.name, onProgress: (progress) => setFile(item.key, { progress }) });
    uploads.set(item.key, { handle, file });
    handle.promise
      .then((result) => {
        setFile(item.key, { id: result.id, name: result.name, size: result.size, progress: 1, status: 'done' });
        setError('attachments', undefined);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.errorKey === 'aborted') return;
        const wording = error instanceof ApiError ? ATTACHMENT_FAILURES[error.errorKey] : undefined;
        const final = error instanceof ApiError && FINAL_FAILURES.has(error.errorKey);
        setFile(item.key, { status: 'error', error: wording ? warn(wording) : fail(error), final });
      });
  }

  function addAttachments(list: File[]): void {
    if (list.length === 0) return;
    const items = newAttachments(get().files.length, list);
    if (!items) {
      setError('attachments', warn('form.errors.attachments.too_big'));
      return;
    }
    update({ files: [...get().files, ...items] });
    items.forEach((item, index) => {
      if (item.status === 'uploading') startUpload(item, list[index]!);
    });
  }

  /** Removes a file from the list, cancelling its upload. */
  function removeFile(itemKey: string): void {
    uploads.get(itemKey)?.handle?.abort();
    uploads.delete(itemKey);
    update({ files: get().files.filter((entry) => entry.key !== itemKey) });
  }

  /** Whether a failed file can be sent again: chosen here (not restored), and refused for a reason that can pass (not its type or size). */
  const canRetry = (itemKey: string) => Boolean(uploads.get(itemKey)?.file) && !get().files.find((entry) => entry.key === itemKey)?.final;

  function retryFile(itemKey: string): void {
    const file = uploads.get(itemKey)?.file;
    const item = get().files.find((entry) => entry.key === itemKey);
    if (!file || !item) return;
    const fresh: FileItem = { ...item, progress: 0, status: 'uploading', error: undefined };
    setFile(itemKey, fresh);
    startUpload(fresh, file);
  }

  // ---- saving -------------------------------------------------------------------------------
  const payload = () => ({ ...get().fields, attachments: doneFiles(get().files).map((file) => file.id) });
  const localCopy = () => ({ v: 1 as const, savedAt: new Date().toISOString(), draftId: get().draftId, projectId, fields: get().fields, files: doneFiles(get().files) });

  /** Nothing is sent while uploads run: says so and answers false. */
  function uploadsDone(): boolean {
    if (!$uploading.get()) return true;
    update({ status: { notice: warn('form.waitForUploads') } });
    return false;
  }

  /** A refused save: the fields' errors when the server named them, else why. Returns the field to focus. */
  function refused(error: unknown, failureKey: string): FieldName | null {
    // A version name the project has already is the version field's error, said beside it.
    if (error instanceof ApiError && error.errorKey === 'version_name_taken') {
      update({ busy: null, errors: { ...get().errors, version: fail(error) }, status: { notice: warn('form.fixErrors') } });
      return 'version';
    }
    const errors = fieldErrorsOf(error);
    update({ busy: null, ...(errors ? { errors } : {}), status: { notice: errors ? warn('form.fixErrors') : fail(error, failureKey) } });
    return errors ? firstInvalid(errors) : null;
  }

  const send = (publish: boolean) => {
    const { draftId } = get();
    const version = publish ? versionToSend(Boolean(projectId), get().version) : undefined;
    const body = { ...payload(), publish, ...(draftId ? { draftId } : {}), ...(version ? { version } : {}) };
    return projectId ? apiCall<{ id: string }>('release/editProject', { ...body, id: projectId }) : apiCall<{ id: string }>('release/saveProject', body);
  };

  /** Saves a draft (of the new project, or of changes to a published one). Returns the field to focus. */
  async function saveDraft(): Promise<FieldName | null> {
    if (!uploadsDone()) return null;
    const snapshot = snapshotOf(get().fields, doneFiles(get().files));
    const hadDraft = get().draftId;
    update({ busy: 'draft', status: null });
    try {
      const result = await send(false);
      writeCopy(key(), null);
      update({ busy: null, draftId: result.id, errors: {}, restored: null, savedSnapshot: snapshot, status: { notice: say('form.draftSaved', { time: timeFormat.format(new Date()) }) } });
      if (!projectId && !hadDraft) window.history.replaceState(window.history.state, '', `${formPath}?draft=${encodeURIComponent(result.id)}`);
      return null;
    } catch (error) {
      return refused(error, 'form.saveFailed');
    }
  }

  /** Saves a preview and opens it in a new tab. Returns the field to focus. */
  async function preview(): Promise<FieldName | null> {
    if (!uploadsDone()) return null;
    // Opened now, while the click still counts as a user gesture; filled in once saved.
    const win = window.open('', '_blank');
    update({ busy: 'preview', status: null });
    try {
      const result = await apiCall<{ id: string; url: string }>('release/savePreview', { ...payload(), ...(projectId ? { projectId } : {}) });
      if (win) {
        win.opener = null;
        win.location.href = result.url;
      }
      update({ busy: null, status: { notice: say(win ? 'form.previewOpened' : 'form.previewReady'), link: result.url } });
      return null;
    } catch (error) {
      win?.close();
      return refused(error, 'form.previewFailed');
    }
  }

  let leaving = false;

  /** Publishes (or updates the published project) and goes to the success page. Returns the field to focus. */
  async function publish(): Promise<FieldName | null> {
    const problems = publishProblems(get().fields, get().files, { editing: Boolean(projectId), choice: get().version });
    if (firstInvalid(problems)) {
      update({ errors: problems, status: { notice: warn('form.fixErrors') } });
      return firstInvalid(problems);
    }
    if (!uploadsDone()) return null;
    update({ busy: 'publish', status: null });
    try {
      const result = await send(true);
      writeCopy(key(), null);
      leaving = true;
      window.location.assign(`${successPath}?id=${encodeURIComponent(result.id)}${projectId ? '&updated=1' : ''}`);
      return null;
    } catch (error) {
      return refused(error, 'form.publishFailed');
    }
  }

  /**
   * Live in the browser: restores a newer local copy, keeps one while there are unsaved changes
   * (autosave), and asks before leaving with unsaved changes or running uploads.
   */
  function start(): () => void {
    const restore = copyToRestore(readCopy(key()), source.updatedAt, get().savedSnapshot);
    if (restore) update({ fields: restore.fields, files: itemsOf(restore.files), restored: restore.savedAt });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const autosave = () => {
      clearTimeout(timer);
      timer = setTimeout(() => writeCopy(key(), $dirty.get() ? localCopy() : null), 300);
    };
    autosave();
    const stopAutosave = $form.listen(autosave);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving || (!$dirty.get() && !$uploading.get())) return;
      if ($dirty.get()) writeCopy(key(), localCopy());
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      clearTimeout(timer);
      stopAutosave();
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }

  return {
    $form,
    $dirty,
    $uploading,
    projectId,
    setField,
    setVersion,
    latestVersion: source.latestVersion ?? null,
    discardRestored,
    chooseCover,
    cancelCrop: cover.cancel,
    cropFailed,
    uploadCover,
    uploadImages,
    addAttachments,
    removeFile,
    canRetry,
    retryFile,
    saveDraft,
    preview,
    publish,
    start,
  };
}

export type ProjectFormStore = ReturnType<typeof createProjectForm>;
