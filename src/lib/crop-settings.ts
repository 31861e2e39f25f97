/**
 * The pure part of the image cropper: option defaults and normalisation, the initial crop box,
 * the limits a crop box change must respect, and the downscaling and output sizes. Used by
 * `src/islands/ImageCropper.tsx`; no DOM here so it is unit-tested directly.
 */

export type CropOutputType = 'jpeg' | 'png' | 'webp';

export interface Size {
  width: number;
  height: number;
}

export interface Box extends Size {
  x: number;
  y: number;
}

/** The cropper's settings as a caller may give them (the island's props minus callbacks). */
export interface CropOptionsInput {
  outputType?: CropOutputType;
  outputQuality?: number;
  aspectRatio?: number | null;
  autoCropSize?: Size;
  minCropSize?: number | Size;
}

/** The settings after defaults and checks. */
export interface CropOptions {
  outputType: CropOutputType;
  /** The MIME type `canvas.toBlob` is asked for. */
  mime: 'image/jpeg' | 'image/png' | 'image/webp';
  /** 0–1. */
  outputQuality: number;
  /** width / height, or null for a free crop box. */
  aspectRatio: number | null;
  /** The first crop box in view pixels, or null for `DEFAULT_COVERAGE` of the image in view. */
  autoCropSize: Size | null;
  /** The smallest crop box in view pixels (both ≥ 0). */
  minCropSize: Size;
}

/** Images are downscaled to this longest side before cropping (and the output never exceeds it). */
export const MAX_IMAGE_SIDE = 2000;
/** Without `autoCropSize`, the first crop box covers this share of the image in view. */
export const DEFAULT_COVERAGE = 0.8;
export const DEFAULT_MIN_CROP = 10;

const MIME: Record<CropOutputType, CropOptions['mime']> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

const finiteAtLeast = (value: unknown, min: number, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(min, value) : fallback;

/**
 * Fills in the defaults of the specification (JPEG at quality 1, aspect ratio 1:1, minimum crop
 * 10 px) and clamps what is out of range: quality into 0–1, minimum sizes to ≥ 0 (a number sets
 * both sides), a non-positive ratio means free, an unusable auto size means none.
 */
export function normalizeCropOptions(input: CropOptionsInput = {}): CropOptions {
  const outputType: CropOutputType = input.outputType && input.outputType in MIME ? input.outputType : 'jpeg';
  const outputQuality = Math.min(1, finiteAtLeast(input.outputQuality, 0, 1));
  let aspectRatio: number | null = 1;
  if (input.aspectRatio === null) aspectRatio = null;
  else if (input.aspectRatio !== undefined) {
    aspectRatio = Number.isFinite(input.aspectRatio) && input.aspectRatio > 0 ? input.aspectRatio : null;
  }
  const min = input.minCropSize;
  const minCropSize =
    typeof min === 'object' && min !== null
      ? { width: finiteAtLeast(min.width, 0, DEFAULT_MIN_CROP), height: finiteAtLeast(min.height, 0, DEFAULT_MIN_CROP) }
      : { width: finiteAtLeast(min, 0, DEFAULT_MIN_CROP), height: finiteAtLeast(min, 0, DEFAULT_MIN_CROP) };
  const auto = input.autoCropSize;
  const autoCropSize =
    auto && Number.isFinite(auto.width) && Number.isFinite(auto.height) && auto.width > 0 && auto.height > 0
      ? { width: auto.width, height: auto.height }
      : null;
  return { outputType, mime: MIME[outputType], outputQuality, aspectRatio, autoCropSize, minCropSize };
}

/** The largest size of ratio `aspectRatio` that fits in `size`. */
export function fitRatio(size: Size, aspectRatio: number): Size {
  return size.width / size.height > aspectRatio
    ? { width: size.height * aspectRatio, height: size.height }
    : { width: size.width, height: size.width / aspectRatio };
}

/**
 * The size an image is drawn at before cropping: unchanged up to `max` px on the longest side,
 * else scaled down proportionally (rounded, at least 1 px).
 */
export function downscaleSize(width: number, height: number, max = MAX_IMAGE_SIDE): Size & { scaled: boolean } {
  const longest = Math.max(width, height);
  if (longest <= max) return { width, height, scaled: false };
  const factor = max / longest;
  return { width: Math.max(1, Math.round(width * factor)), height: Math.max(1, Math.round(height * factor)), scaled: true };
}

/**
 * The first crop box, centred on the image in view (`view`, in view pixels): `autoCropSize` when
 * given (shrunk to fit), else `DEFAULT_COVERAGE` of the image; with a fixed ratio the box keeps
 * it; never below the minimum size where the image allows.
 */
export function initialCropBox(view: Box, options: Pick<CropOptions, 'aspectRatio' | 'autoCropSize' | 'minCropSize'>): Box {
  const ratio = options.aspectRatio;
  const min = options.minCropSize;
  let size: Size = options.autoCropSize ?? { width: view.width * DEFAULT_COVERAGE, height: view.height * DEFAULT_COVERAGE };
  if (ratio) size = fitRatio(size, ratio);
  // Grow to the minimum size (keeping the ratio), then shrink to what the image in view allows.
  const grow = Math.max(1, min.width / size.width || 1, min.height / size.height || 1);
  size = ratio ? { width: size.width * grow, height: size.height * grow } : { width: Math.max(size.width, min.width), height: Math.max(size.height, min.height) };
  if (size.width > view.width || size.height > view.height) {
    size = ratio ? fitRatio(view, ratio) : { width: Math.min(size.width, view.width), height: Math.min(size.height, view.height) };
  }
  return {
    x: view.x + (view.width - size.width) / 2,
    y: view.y + (view.height - size.height) / 2,
    width: size.width,
    height: size.height,
  };
}

/** How far `box` sticks out of `bounds`, summed over the four sides (0 when inside). */
export function overflowOf(box: Box, bounds: Box): number {
  const tolerance = 0.5; // rounding of the cropper's pixel positions
  const out = (value: number) => (value > tolerance ? value : 0);
  return (
    out(bounds.x - box.x) +
    out(bounds.y - box.y) +
    out(box.x + box.width - (bounds.x + bounds.width)) +
    out(box.y + box.height - (bounds.y + bounds.height))
  );
}

/**
 * Whether the crop box may change from `previous` to `next`: it must stay at least the minimum
 * size, and stay inside the image (`bounds`) — or, when zooming or rotating left it partly
 * outside, at least not stick out further.
 */
export function isCropChangeAllowed(previous: Box | null, next: Box, bounds: Box, min: Size): boolean {
  if (next.width < min.width || next.height < min.height) return false;
  const overflow = overflowOf(next, bounds);
  if (overflow === 0) return true;
  return previous !== null && previous.width > 0 && overflow <= overflowOf(previous, bounds);
}

/**
 * The output size of a crop box of `box` view pixels when one image pixel shows as `scale` view
 * pixels: the image's own resolution, capped at `max` px on the longest side, at least 1 px.
 */
export function cropOutputSize(box: Size, scale: number, max = MAX_IMAGE_SIDE): Size {
  const factor = scale > 0 && Number.isFinite(scale) ? 1 / scale : 1;
  const size = downscaleSize(box.width * factor, box.height * factor, max);
  return { width: Math.max(1, Math.round(size.width)), height: Math.max(1, Math.round(size.height)) };
}
