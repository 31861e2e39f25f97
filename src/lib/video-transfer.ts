import { DetailedError, Upload, type PreviousUpload } from 'tus-js-client';
import { ApiError } from './api-client.ts';
import { isErrorKey, type ErrorEnvelope } from './contract/errors.ts';
import type { VideoUploadTicket } from './contract/schemas/videos.ts';

/** Bytes per PATCH: big enough to keep a fast line busy, small enough that a drop loses little. */
export const VIDEO_CHUNK_BYTES = 8 * 1024 * 1024;

/** What the upload store needs from a resumable transfer of one file. */
export interface VideoTransfer {
  start(): void;
  /** Stops sending; what arrived stays on the server and `start` continues from there. */
  pause(): Promise<void>;
}

export interface TransferEvents {
  onProgress(sent: number, total: number): void;
  onSuccess(): void;
  onError(error: ApiError): void;
}

/** An upload of this file begun earlier (another visit, a reload) that the server may still hold. */
export interface UnfinishedUpload {
  uploadToken: string;
  previous: PreviousUpload;
}

/**
 * Which file a stored upload belongs to: its name, size and modification time. The tus default
 * also hashes the endpoint, which changes with every ticket, so a reload could never find it.
 */
function fingerprint(file: File | Blob): Promise<string> {
  const named = file as File;
  return Promise.resolve(['copperhub-video', named.name ?? '', file.size, named.lastModified ?? 0].join(':'));
}

/** The newest unfinished upload of `file` in this browser, with the token it was begun with. */
export async function findUnfinishedUpload(file: File): Promise<UnfinishedUpload | null> {
  const probe = new Upload(file, { fingerprint });
  const found = await probe.findPreviousUploads().catch(() => []);
  const usable = found
    .filter((entry) => entry.uploadUrl && typeof entry.metadata?.uploadToken === 'string')
    .sort((a, b) => String(b.creationTime).localeCompare(String(a.creationTime)));
  const previous = usable[0];
  return previous ? { uploadToken: previous.metadata.uploadToken!, previous } : null;
}

/** Forgets every stored upload of `file` (the user starts over). */
export async function forgetUnfinishedUploads(file: File): Promise<void> {
  const probe = new Upload(file, { fingerprint });
  const found = await probe.findPreviousUploads().catch(() => []);
  const storage = probe.options.urlStorage;
  await Promise.all(found.map((entry) => storage?.removeUpload(entry.urlStorageKey).catch(() => undefined)));
}

/** A tus failure as the islands' one error shape: the server's envelope when it sent one. */
export function transferError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DetailedError && error.originalResponse) {
    const status = error.originalResponse.getStatus();
    try {
      const envelope = JSON.parse(error.originalResponse.getBody()) as Partial<ErrorEnvelope> | null;
      if (envelope && typeof envelope.retCode === 'number' && envelope.retCode !== 0 && isErrorKey(envelope.errorKey)) return new ApiError(envelope.retCode, envelope.errorKey, envelope.message ?? error.message, envelope.fields);
    } catch {
      // Not our envelope (a proxy's page): judged by the status below.
    }
    if (status === 413) return new ApiError(status, 'too_large', error.message);
    if (status === 401) return new ApiError(status, 'unauthorized', error.message);
    if (status === 403) return new ApiError(status, 'forbidden', error.message);
    if (status === 404 || status === 410) return new ApiError(status, 'not_found', error.message);
    if (status >= 400) return new ApiError(status, status >= 500 ? 'internal' : 'bad_request', error.message);
  }
  return new ApiError(0, 'network', error instanceof Error ? error.message : String(error));
}

/**
 * A tus upload of `file`: new, to the ticket's address with its token in `Upload-Metadata`, or
 * continuing an unfinished one. Its address is kept in this browser until it finishes, so the
 * same file picked after a reload continues where it stopped.
 */
export function openVideoTransfer(file: File, from: { ticket: VideoUploadTicket } | { unfinished: UnfinishedUpload }, mime: string, events: TransferEvents): VideoTransfer {
  const uploadToken = 'ticket' in from ? from.ticket.uploadToken : from.unfinished.uploadToken;
  const upload = new Upload(file, {
    ...('ticket' in from ? { endpoint: from.ticket.uploadUrl } : {}),
    metadata: { uploadToken, filename: file.name, filetype: mime },
    chunkSize: VIDEO_CHUNK_BYTES,
    retryDelays: [0, 1000, 3000, 5000, 10000],
    fingerprint,
    removeFingerprintOnSuccess: true,
    onProgress: (sent, total) => events.onProgress(sent, total),
    onSuccess: () => events.onSuccess(),
    onError: (error) => events.onError(transferError(error)),
  });
  if ('unfinished' in from) upload.resumeFromPreviousUpload(from.unfinished.previous);
  return {
    start: () => upload.start(),
    pause: () => upload.abort(false),
  };
}
