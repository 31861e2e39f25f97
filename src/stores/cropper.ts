import type { CropperCanvas, CropperImage, CropperSelection } from 'cropperjs';
import { map } from 'nanostores';
import { cropperMarkup, prepareImage, type PreparedImage } from '../lib/crop-image.ts';
import { cropOutputSize, initialCropBox, isCropChangeAllowed, type Box, type CropOptions } from '../lib/crop-settings.ts';
import { warn, type Notice } from '../lib/notice.ts';

/** Loading → ready (⇄ cropping); error when the image cannot be opened. */
export type CropperStatus = 'loading' | 'ready' | 'error' | 'cropping';

export interface CropperState {
  status: CropperStatus;
  error: Notice | null;
}

/** Keyboard and button steps of the crop box, in view pixels (Shift: fine steps). */
export const MOVE_STEP = 10;
export const FINE_STEP = 1;
export const ZOOM_STEP = 0.1;

interface Parts {
  canvas: CropperCanvas;
  image: CropperImage;
  selection: CropperSelection;
}

/**
 * One cropping session on cropperjs 2 (browser only): opens an image in a host element, keeps the
 * crop box on the image and never smaller than the minimum, rotates, zooms, moves, resets, and
 * crops to a Blob at the image's own resolution.
 */
export function createCropper(options: CropOptions) {
  const $cropper = map<CropperState>({ status: 'loading', error: null });
  let parts: Parts | null = null;

  /** The part of the image that is in view, in the crop area's coordinates. */
  function imageBounds(): Box {
    if (!parts) return { x: 0, y: 0, width: 0, height: 0 };
    const area = parts.canvas.getBoundingClientRect();
    const rect = parts.image.getBoundingClientRect();
    const x = Math.max(rect.left, area.left);
    const y = Math.max(rect.top, area.top);
    const right = Math.min(rect.right, area.right);
    const bottom = Math.min(rect.bottom, area.bottom);
    return { x: x - area.left, y: y - area.top, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
  }

  function placeSelection(): void {
    if (!parts) return;
    const box = initialCropBox(imageBounds(), options);
    parts.selection.$change(box.x, box.y, box.width, box.height, options.aspectRatio ?? Number.NaN, true);
  }

  /** Refuses crop box changes that would leave the image or go below the minimum size. */
  function limitChanges(event: Event): void {
    if (!parts) return;
    const next = (event as CustomEvent<Box>).detail;
    const { selection } = parts;
    const previous = selection.width > 0 ? { x: selection.x, y: selection.y, width: selection.width, height: selection.height } : null;
    if (!isCropChangeAllowed(previous, next, imageBounds(), options.minCropSize)) event.preventDefault();
  }

  const ready = () => $cropper.get().status === 'ready' && parts !== null;

  /**
   * Opens `src` in `host`; `onReady` once the crop box is placed, `onError` when the image cannot
   * be opened. Returns how to close it (removes the elements, frees the image).
   */
  function open(host: HTMLElement, src: string | Blob, alt: string, events: { onReady: () => void; onError: (error: Error) => void }): () => void {
    let cancelled = false;
    let prepared: PreparedImage | null = null;
    $cropper.set({ status: 'loading', error: null });
    (async () => {
      prepared = await prepareImage(src);
      await import('cropperjs'); // defines the cropper-* elements
      if (cancelled) return;
      host.innerHTML = cropperMarkup(prepared.url, alt, options.aspectRatio);
      const canvas = host.querySelector<CropperCanvas>('cropper-canvas');
      const image = host.querySelector<CropperImage>('cropper-image');
      const selection = host.querySelector<CropperSelection>('cropper-selection');
      if (!canvas || !image || !selection) throw new Error('The cropper could not start');
      parts = { canvas, image, selection };
      selection.addEventListener('change', limitChanges);
      await image.$ready();
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (cancelled) return;
      placeSelection();
      $cropper.setKey('status', 'ready');
      events.onReady();
    })().catch((error: unknown) => {
      if (cancelled) return;
      $cropper.set({ status: 'error', error: warn('cropper.loadError') });
      events.onError(error instanceof Error ? error : new Error(String(error)));
    });
    return () => {
      cancelled = true;
      parts?.selection.removeEventListener('change', limitChanges);
      parts = null;
      host.innerHTML = '';
      for (const url of prepared?.revoke ?? []) URL.revokeObjectURL(url);
    };
  }

  function rotate(degrees: number): void {
    if (!ready()) return;
    parts!.image.$rotate(`${degrees}deg`);
    parts!.image.$center('contain');
    placeSelection();
  }

  function zoom(step: number): void {
    if (ready()) parts!.image.$zoom(step);
  }

  function move(x: number, y: number): void {
    if (ready()) parts!.selection.$move(x, y);
  }

  function reset(): void {
    if (!ready()) return;
    parts!.image.$resetTransform();
    parts!.image.$center('contain');
    placeSelection();
  }

  /** The crop as a Blob (null while there is nothing to crop); a failure is kept in the state and thrown. */
  async function crop(): Promise<Blob | null> {
    if (!ready()) return null;
    const { image, selection } = parts!;
    $cropper.setKey('status', 'cropping');
    try {
      const [a = 1, b = 0] = image.$getTransform();
      const size = cropOutputSize({ width: selection.width, height: selection.height }, Math.hypot(a, b));
      const canvas = await selection.$toCanvas({
        width: size.width,
        height: size.height,
        beforeDraw: (context, target) => {
          context.imageSmoothingQuality = 'high';
          // JPEG has no transparency: what lies outside the image becomes white, not black.
          if (options.mime === 'image/jpeg') {
            context.fillStyle = '#fff';
            context.fillRect(0, 0, target.width, target.height);
          }
        },
      });
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, options.mime, options.outputQuality));
      if (!blob) throw new Error('The image could not be cropped');
      $cropper.setKey('status', 'ready');
      return blob;
    } catch (error) {
      $cropper.set({ status: 'ready', error: warn('cropper.cropError') });
      throw error instanceof Error ? error : new Error(String(error));
    }
  }

  return { $cropper, open, rotate, zoom, move, reset, crop };
}

export type Cropper = ReturnType<typeof createCropper>;
