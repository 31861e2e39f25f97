import { downscaleSize } from './crop-settings.ts';

/** An image ready for the cropper: its URL and the object URLs to revoke when done. */
export interface PreparedImage {
  url: string;
  revoke: string[];
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Whether the image comes from another origin (then it is loaded with CORS, so it can be cropped). */
export function needsCors(url: string): boolean {
  if (!/^https?:/i.test(url)) return false;
  try {
    return new URL(url, window.location.href).origin !== window.location.origin;
  } catch {
    return false;
  }
}

/** Loads the image (refusing empty or undecodable ones) and downscales it past 2000 px. */
export async function prepareImage(src: string | Blob): Promise<PreparedImage> {
  const revoke: string[] = [];
  try {
    let url: string;
    if (typeof src === 'string') {
      if (!src.trim()) throw new Error('The image is empty');
      url = src;
    } else {
      if (src.size === 0) throw new Error('The image is empty');
      url = URL.createObjectURL(src);
      revoke.push(url);
    }
    const image = new Image();
    if (needsCors(url)) image.crossOrigin = 'anonymous';
    image.src = url;
    try {
      await image.decode();
    } catch {
      throw new Error('The image could not be loaded');
    }
    if (!image.naturalWidth || !image.naturalHeight) throw new Error('The image is empty');
    const target = downscaleSize(image.naturalWidth, image.naturalHeight);
    if (target.scaled) {
      const canvas = document.createElement('canvas');
      canvas.width = target.width;
      canvas.height = target.height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('The image could not be prepared');
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, target.width, target.height);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('The image could not be prepared');
      url = URL.createObjectURL(blob);
      revoke.push(url);
    }
    return { url, revoke };
  } catch (error) {
    for (const url of revoke) URL.revokeObjectURL(url);
    throw error;
  }
}

/** The cropperjs elements for one image: canvas, image, shade, selection with grid and handles. */
export function cropperMarkup(url: string, alt: string, aspectRatio: number | null): string {
  const handles = ['n', 'e', 's', 'w', 'ne', 'nw', 'se', 'sw'].map((side) => `<cropper-handle action="${side}-resize"></cropper-handle>`).join('');
  const cors = needsCors(url) ? ' crossorigin="anonymous"' : '';
  return (
    '<cropper-canvas background scale-step="0.1">' +
    `<cropper-image src="${escapeAttr(url)}" alt="${escapeAttr(alt)}"${cors} rotatable scalable translatable initial-fit="contain"></cropper-image>` +
    '<cropper-shade hidden></cropper-shade>' +
    '<cropper-handle action="select" plain></cropper-handle>' +
    `<cropper-selection movable resizable zoomable outlined${aspectRatio ? ` aspect-ratio="${aspectRatio}"` : ''}>` +
    '<cropper-grid bordered covered></cropper-grid>' +
    '<cropper-crosshair centered></cropper-crosshair>' +
    '<cropper-handle action="move" theme-color="rgba(255, 255, 255, 0.35)"></cropper-handle>' +
    handles +
    '</cropper-selection>' +
    '</cropper-canvas>'
  );
}
