import { ApiError, isCrossOrigin } from './api-client.ts';
import type { ApiEnvelope } from './api-types.ts';
import type { ErrorEnvelope } from './contract/errors.ts';

/** What `POST /api/upload` answers. */
export interface UploadedFile {
  id: string;
  url: string;
  name: string;
  mime: string;
  size: number;
}

export type UploadPurpose = 'avatar' | 'cover' | 'image' | 'attachment';

export interface UploadHandle {
  promise: Promise<UploadedFile>;
  abort: () => void;
}

/**
 * Uploads one file to `/api/upload` with XMLHttpRequest, which (unlike fetch/ofetch) reports
 * upload progress: `onProgress` gets 0…1. The browser sends the session cookie (to another
 * `PUBLIC_API_BASE` origin too, like `api`). Fails with `ApiError` like `apiCall` does; an abort
 * fails with errorKey `aborted`.
 */
export function uploadFile(
  file: Blob,
  options: { purpose: UploadPurpose; name?: string; onProgress?: (fraction: number) => void },
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadedFile>((resolve, reject) => {
    const base: string = import.meta.env.PUBLIC_API_BASE ?? '';
    xhr.open('POST', `${base}/api/upload`);
    xhr.withCredentials = isCrossOrigin(base);
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const envelope = xhr.response as ApiEnvelope<UploadedFile> | null;
      if (envelope && envelope.retCode === 0) {
        options.onProgress?.(1);
        resolve((envelope as { result: UploadedFile }).result);
        return;
      }
      const failure = envelope as ErrorEnvelope | null;
      reject(new ApiError(failure?.retCode ?? xhr.status, failure?.errorKey ?? (xhr.status === 413 ? 'too_large' : 'internal'), failure?.message ?? xhr.statusText, failure?.fields));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'network', 'Network error')));
    xhr.addEventListener('abort', () => reject(new ApiError(0, 'aborted', 'Aborted')));
    const form = new FormData();
    form.append('purpose', options.purpose);
    form.append('file', file, options.name ?? (file instanceof File ? file.name : 'file'));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
