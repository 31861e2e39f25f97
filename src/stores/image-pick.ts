import { map } from 'nanostores';
import { fail, warn, type Notice } from '../lib/notice.ts';
import { PICTURE_MAX_BYTES } from '../lib/pictures.ts';
import { uploadFile, type UploadedFile, type UploadHandle, type UploadPurpose } from '../lib/upload-client.ts';

export interface ImagePickState {
  /** The picture being cropped: the cropper dialog is open while set. */
  cropSource: Blob | null;
  /** Upload progress (0…1) while the cropped picture uploads; null otherwise. */
  progress: number | null;
  /** Why the last picture was not taken (too large, not an image, the upload failed). */
  error: Notice | null;
}

/** How the picture is sent: `uploadFile` in the browser. */
export type Uploader = (file: Blob, options: { purpose: UploadPurpose; name?: string; onProgress?: (fraction: number) => void }) => UploadHandle;

/**
 * The "pick a picture → refuse one that is too large → crop → upload with progress" steps that
 * every picture field shares (a make's photos, covers, avatars, banners). The island opens the
 * cropper on `cropSource` and hands its result to `upload`, which resolves to the stored upload
 * (or null when it failed: `error` says why).
 */
export function createImagePick(options: {
  purpose: UploadPurpose;
  /** What a too large picture is told (default: the `too_large` error). */
  tooLarge?: Notice;
  /** How a failed upload is worded (default: the call's error). */
  failure?: (error: unknown) => Notice;
  upload?: Uploader;
}) {
  const $pick = map<ImagePickState>({ cropSource: null, progress: null, error: null });
  const send = options.upload ?? uploadFile;

  /** A picture was chosen: a too large one is refused here, the rest go to the cropper. */
  function pick(file: Blob | undefined): void {
    if (!file) return;
    if (file.size > PICTURE_MAX_BYTES) $pick.set({ cropSource: null, progress: null, error: options.tooLarge ?? fail({ errorKey: 'too_large' }) });
    else $pick.set({ cropSource: file, progress: null, error: null });
  }

  /** The cropper was closed without cropping. */
  function cancel(): void {
    $pick.setKey('cropSource', null);
  }

  /**
   * The cropper could not open the picture: it stays open saying so itself (its crop button
   * disabled) until it is closed, and the field says it too.
   */
  function cropFailed(): void {
    $pick.set({ ...$pick.get(), progress: null, error: warn('cropper.loadError') });
  }

  /** Uploads the cropped picture with progress; the stored upload, or null when it failed. */
  async function upload(blob: Blob): Promise<UploadedFile | null> {
    $pick.set({ cropSource: null, progress: 0, error: null });
    const extension = blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg';
    try {
      const result = await send(blob, { purpose: options.purpose, name: `${options.purpose}.${extension}`, onProgress: (fraction) => $pick.setKey('progress', fraction) }).promise;
      $pick.setKey('progress', null);
      return result;
    } catch (error) {
      $pick.set({ cropSource: null, progress: null, error: (options.failure ?? fail)(error) });
      return null;
    }
  }

  /** Forgets the last error (the field was used again). */
  function clearError(): void {
    $pick.setKey('error', null);
  }

  /** Back to nothing picked (the form was emptied or opened on something else). */
  function reset(): void {
    $pick.set({ cropSource: null, progress: null, error: null });
  }

  return { $pick, pick, cancel, cropFailed, upload, clearError, reset };
}

export type ImagePick = ReturnType<typeof createImagePick>;
