import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { VIDEO_MAX_BYTES, VIDEO_MIMES, VIDEO_TITLE_MAX } from '../lib/contract/video.ts';
import { fail, invalid, say, warn, type Notice } from '../lib/notice.ts';
import { findUnfinishedUpload, forgetUnfinishedUploads, openVideoTransfer, type TransferEvents, type UnfinishedUpload, type VideoTransfer } from '../lib/video-transfer.ts';
import type { Video, VideoUploadTicket } from '../lib/contract/schemas/videos.ts';

/**
 * Where an upload is: nothing picked; a file picked (title and project being chosen); asking for
 * a ticket; bytes going out; stopped by the user (resumable); the video being saved; saved; or
 * failed (`retry` continues from the step that failed).
 */
export type UploadPhase = 'idle' | 'picked' | 'starting' | 'uploading' | 'paused' | 'saving' | 'done' | 'error';

/** What the island shows of the picked file. */
export interface PickedFile {
  name: string;
  size: number;
  mime: string;
}

export interface VideoUploadState {
  phase: UploadPhase;
  file: PickedFile | null;
  title: string;
  /** The project to link the video to, '' for none. */
  projectId: string;
  sent: number;
  total: number;
  /** Bytes per second over the last few seconds, null until measured. */
  rate: number | null;
  /** Seconds still needed at that rate, null until measured. */
  secondsLeft: number | null;
  /** This browser began uploading this very file before: `send` continues it. */
  unfinished: boolean;
  titleError: Notice | null;
  notice: Notice | null;
}

/** A moment of an upload: bytes sent by then. */
export interface RateSample {
  at: number;
  sent: number;
}

/** How far back the speed is measured: long enough to smooth chunk bursts, short enough to follow a change of line. */
export const RATE_WINDOW_MS = 5000;

/** The sending rate in bytes per second over the samples of the last `RATE_WINDOW_MS`, null with too little to tell. */
export function uploadRate(samples: readonly RateSample[], now: number): number | null {
  const recent = samples.filter((sample) => now - sample.at <= RATE_WINDOW_MS);
  if (recent.length < 2) return null;
  const first = recent[0]!;
  const last = recent[recent.length - 1]!;
  const elapsed = (last.at - first.at) / 1000;
  if (elapsed < 0.25) return null;
  return Math.max(0, (last.sent - first.sent) / elapsed);
}

/** Seconds to send what is left at `rate`, null when the rate is unknown or nil. */
export function secondsLeft(sent: number, total: number, rate: number | null): number | null {
  if (rate === null || rate <= 0) return null;
  return Math.max(0, (total - sent) / rate);
}

/** The fraction sent, 0…1. */
export function uploadFraction(state: Pick<VideoUploadState, 'sent' | 'total'>): number {
  return state.total > 0 ? Math.min(1, state.sent / state.total) : 0;
}

const EXTENSION_MIMES: Record<string, (typeof VIDEO_MIMES)[number]> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  qt: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  '3gp': 'video/3gpp',
};

/** The type to declare for a file: the browser's when it knows one, else by its extension (browsers leave `.mkv` blank). */
export function videoMime(name: string, type: string): string {
  if (type) return type;
  const extension = name.toLowerCase().split('.').pop() ?? '';
  return EXTENSION_MIMES[extension] ?? '';
}

/** Why a picked file cannot be uploaded before asking the server, or null. */
export function fileProblem(file: PickedFile): Notice | null {
  if (file.size === 0) return warn('video.upload.empty');
  if (file.size > VIDEO_MAX_BYTES) return warn('video.upload.tooLarge', { max: Math.round(VIDEO_MAX_BYTES / (1024 * 1024 * 1024)) });
  if (!file.mime.startsWith('video/')) return warn('video.upload.notVideo');
  return null;
}

/** A file's name without its extension: the title a video gets until its owner types one. */
export function titleFromName(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).replace(/[_]+/g, ' ').trim().slice(0, VIDEO_TITLE_MAX);
}

/** What the store asks of the API and of the transfer; the island uses the real ones, tests their own. */
export interface VideoUploadDeps {
  requestTicket(body: { name: string; size: number; mime: string }): Promise<VideoUploadTicket>;
  saveVideo(body: { uploadToken: string; title: string; projectId?: string }): Promise<Video>;
  findUnfinished(file: File): Promise<UnfinishedUpload | null>;
  forgetUnfinished(file: File): Promise<void>;
  openTransfer(file: File, from: { ticket: VideoUploadTicket } | { unfinished: UnfinishedUpload }, mime: string, events: TransferEvents): VideoTransfer;
  now(): number;
}

const browserDeps: VideoUploadDeps = {
  requestTicket: (body) => apiCall<VideoUploadTicket>('video/getVideoToken', body),
  saveVideo: (body) => apiCall<Video>('video/saveVideo', body),
  findUnfinished: findUnfinishedUpload,
  forgetUnfinished: forgetUnfinishedUploads,
  openTransfer: openVideoTransfer,
  now: () => Date.now(),
};

/** What the tus endpoint answers about an upload it no longer has (expired, saved, or never yours). */
const GONE = new Set<string>(['upload_not_found', 'not_found', 'forbidden']);

const initial: VideoUploadState = {
  phase: 'idle',
  file: null,
  title: '',
  projectId: '',
  sent: 0,
  total: 0,
  rate: null,
  secondsLeft: null,
  unfinished: false,
  titleError: null,
  notice: null,
};

/**
 * The owner's video upload: pick a file (its unfinished upload in this browser is offered again),
 * name it, send it with tus (progress, speed and time left; stop and continue), then save it as a
 * video, which `onSaved` hands to the list.
 */
export function createVideoUpload(options: { onSaved?: (video: Video) => void; deps?: Partial<VideoUploadDeps> } = {}) {
  const deps: VideoUploadDeps = { ...browserDeps, ...options.deps };
  const $upload = map<VideoUploadState>({ ...initial });
  const get = () => $upload.get();
  const update = (patch: Partial<VideoUploadState>) => $upload.set({ ...get(), ...patch });

  let file: File | null = null;
  let unfinished: UnfinishedUpload | null = null;
  let transfer: VideoTransfer | null = null;
  let uploadToken: string | null = null;
  let failedWhile: 'ticket' | 'upload' | 'save' = 'ticket';
  let samples: RateSample[] = [];
  // Each pick gets a number, so answers about an earlier file are ignored.
  let generation = 0;

  async function pick(picked: File): Promise<void> {
    await stopTransfer();
    generation += 1;
    const mine = generation;
    file = picked;
    unfinished = null;
    uploadToken = null;
    samples = [];
    const described: PickedFile = { name: picked.name, size: picked.size, mime: videoMime(picked.name, picked.type) };
    const problem = fileProblem(described);
    $upload.set({ ...initial, projectId: get().projectId, phase: problem ? 'idle' : 'picked', file: problem ? null : described, title: titleFromName(picked.name), total: picked.size, notice: problem });
    if (problem) {
      file = null;
      return;
    }
    const found = await deps.findUnfinished(picked);
    if (mine !== generation || !found) return;
    unfinished = found;
    update({ unfinished: true, notice: say('video.upload.unfinishedFound') });
  }

  function setTitle(title: string): void {
    update({ title, titleError: null });
  }

  function setProject(projectId: string): void {
    update({ projectId });
  }

  const events = (mine: number): TransferEvents => ({
    onProgress(sent, total) {
      if (mine !== generation) return;
      const now = deps.now();
      samples = [...samples.filter((sample) => now - sample.at <= RATE_WINDOW_MS), { at: now, sent }];
      const rate = uploadRate(samples, now);
      update({ sent, total, rate, secondsLeft: secondsLeft(sent, total, rate) });
    },
    onSuccess() {
      if (mine !== generation) return;
      transfer = null;
      void save();
    },
    onError(error) {
      if (mine !== generation) return;
      // An unfinished upload the server no longer has cannot continue: it starts over when retried.
      if (unfinished && GONE.has(error.errorKey)) {
        unfinished = null;
        uploadToken = null;
        transfer = null;
        if (file) void deps.forgetUnfinished(file);
        failedWhile = 'ticket';
        update({ phase: 'error', unfinished: false, rate: null, secondsLeft: null, sent: 0, notice: warn('video.upload.unfinishedGone') });
        return;
      }
      failedWhile = 'upload';
      update({ phase: 'error', rate: null, secondsLeft: null, notice: fail(error, 'video.upload.uploadFailed') });
    },
  });

  function titleProblem(): Notice | null {
    const title = get().title.trim();
    if (!title) return invalid('required');
    if (title.length > VIDEO_TITLE_MAX) return invalid('too_big');
    return null;
  }

  /**
   * Sends the picked file: continues its unfinished upload when there is one, else asks for a
   * ticket. (Not named `start`: `useIslandStore` calls a store's `start` when the island goes live.)
   */
  async function send(): Promise<void> {
    const state = get();
    if (!file || (state.phase !== 'picked' && state.phase !== 'error')) return;
    const problem = titleProblem();
    if (problem) {
      update({ titleError: problem });
      return;
    }
    const mine = generation;
    const picked = file;
    const mime = state.file?.mime ?? picked.type;
    samples = [];
    if (unfinished) {
      uploadToken = unfinished.uploadToken;
      update({ phase: 'uploading', notice: say('video.upload.resuming'), titleError: null });
      transfer = deps.openTransfer(picked, { unfinished }, mime, events(mine));
      transfer.start();
      return;
    }
    update({ phase: 'starting', notice: null, titleError: null, sent: 0 });
    let ticket: VideoUploadTicket;
    try {
      ticket = await deps.requestTicket({ name: picked.name, size: picked.size, mime });
    } catch (error) {
      if (mine !== generation) return;
      failedWhile = 'ticket';
      update({ phase: 'error', notice: fail(error) });
      return;
    }
    if (mine !== generation) return;
    uploadToken = ticket.uploadToken;
    update({ phase: 'uploading' });
    transfer = deps.openTransfer(picked, { ticket }, mime, events(mine));
    transfer.start();
  }

  /** Forgets the unfinished upload of the picked file and sends it from its first byte. */
  async function startOver(): Promise<void> {
    if (!file || get().phase !== 'picked') return;
    await deps.forgetUnfinished(file);
    unfinished = null;
    update({ unfinished: false, notice: null });
    await send();
  }

  /** Stops sending (Cancel); what the server has stays, and `resume` continues from there. */
  async function cancel(): Promise<void> {
    if (get().phase !== 'uploading' || !transfer) return;
    update({ phase: 'paused', rate: null, secondsLeft: null, notice: say('video.upload.paused') });
    await transfer.pause();
  }

  function resume(): void {
    if (get().phase !== 'paused' || !transfer) return;
    samples = [];
    update({ phase: 'uploading', notice: say('video.upload.resuming') });
    transfer.start();
  }

  async function save(): Promise<void> {
    if (!uploadToken) return;
    const mine = generation;
    const { title, projectId, total } = get();
    update({ phase: 'saving', sent: total, rate: null, secondsLeft: null, notice: say('video.upload.saving') });
    try {
      const video = await deps.saveVideo({ uploadToken, title: title.trim(), ...(projectId ? { projectId } : {}) });
      if (mine !== generation) return;
      file = null;
      unfinished = null;
      uploadToken = null;
      update({ phase: 'done', notice: say('video.upload.done', { title: video.title }) });
      options.onSaved?.(video);
    } catch (error) {
      if (mine !== generation) return;
      failedWhile = 'save';
      const titleField = error instanceof ApiError ? error.fields?.title : undefined;
      update({ phase: 'error', titleError: titleField ? invalid(titleField) : null, notice: fail(error, 'video.upload.saveFailed') });
    }
  }

  /** After a failure: asks for a ticket again, continues sending, or saves again, whichever failed. */
  async function retry(): Promise<void> {
    if (get().phase !== 'error') return;
    if (failedWhile === 'save') {
      const problem = titleProblem();
      if (problem) {
        update({ titleError: problem });
        return;
      }
      await save();
      return;
    }
    if (failedWhile === 'upload' && transfer) {
      samples = [];
      update({ phase: 'uploading', notice: say('video.upload.resuming') });
      transfer.start();
      return;
    }
    await send();
  }

  async function stopTransfer(): Promise<void> {
    const running = transfer;
    transfer = null;
    if (running && (get().phase === 'uploading' || get().phase === 'paused' || get().phase === 'error')) await running.pause().catch(() => undefined);
  }

  /** Drops the picked file (after stopping its upload, which stays resumable) to pick another. */
  async function reset(): Promise<void> {
    generation += 1;
    await stopTransfer();
    file = null;
    unfinished = null;
    uploadToken = null;
    $upload.set({ ...initial, projectId: get().projectId });
  }

  return { $upload, pick, setTitle, setProject, send, startOver, cancel, resume, retry, reset };
}

export type VideoUploadStore = ReturnType<typeof createVideoUpload>;
