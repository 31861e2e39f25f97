/**
 * Responsive variants of stored images. An uploaded image is kept once, as WebP of at most
 * 2000 px (`images/ab/<id>.webp`); beside it the job queue writes smaller copies in AVIF and WebP
 * under names that follow from the original's key and width alone (`images/ab/<id>.w640.avif`),
 * so a page can name them in a `srcset` before they exist, and its HTML never changes when they
 * appear. Until then `/files/` answers a missing variant with a redirect to the original.
 *
 * This module owns the widths, the names, the encoding (sharp, in the job, never in a request)
 * and what a `<picture>` of an image says (`describePicture`).
 */
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { ImageSlot } from '../../lib/image-slots.ts';
import { fileUrl, getStorage, type Storage } from '../storage/index.ts';
import { IMAGE_VARIANTS_TIME_LIMIT_MS } from './limits.ts';

/**
 * The widths variants are made at, never wider than the original. 160 serves thumbnails (88 and
 * 96 CSS px); 320 and 640 cards and phones at one and two device pixels per CSS pixel; from there
 * steps of 320 px, so a browser never takes more than half again the pixels it needs; 1600 is the
 * widest a page shows (the gallery, 882 CSS px, on a 2x screen) below the 2000 px originals.
 */
export const VARIANT_WIDTHS = [160, 320, 640, 960, 1280, 1600] as const;
const WIDEST = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!;

/** The formats, in the order a `<picture>` offers them (the first the browser can show wins). */
export const VARIANT_FORMATS = [
  { format: 'avif', type: 'image/avif' },
  { format: 'webp', type: 'image/webp' },
] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number]['format'];

/**
 * Encoder settings chosen for speed on a small machine (measured on 2000 px photos and the demo
 * artwork): AVIF at effort 2 takes a sixth to a tenth of the default effort 4's time for files
 * 10-40 % larger, so a photo's whole set takes 1.2-1.8 s of one core instead of 10 s; WebP at
 * effort 2 is within 5 % of effort 4 at half the time. Qualities are sharp's defaults.
 */
const ENCODE = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 80, effort: 2 },
} as const;

/** An original that has variants: an uploaded (or seeded) image, `images/<2>/<id>.webp`. */
const ORIGINAL_KEY = /^images\/([0-9a-z]{2})\/([0-9a-z]+)\.webp$/;
/** A variant's key: the original's, with `.w<width>.<format>` in place of `.webp`. */
const VARIANT_KEY = /^(images\/[0-9a-z]{2}\/[0-9a-z]+)\.w([1-9][0-9]{0,3})\.(avif|webp)$/;

/**
 * The same pattern on a stored URL, for PostgreSQL (`substring(url from …)`): it captures the
 * upload id, which is the `uploads` row of the original (and so its width).
 */
export const ORIGINAL_URL_SQL_PATTERN = `^${fileUrl('')}images/[0-9a-z]{2}/([0-9a-z]+)\\.webp$`;

/** Largest original read back from storage (a 2000x2000 WebP is a few MB). */
const MAX_ORIGINAL_BYTES = 32 * 1024 * 1024;
/** Originals are at most 2000 px a side; anything claiming more is not one of ours. */
const MAX_ORIGINAL_PIXELS = 2000 * 2000;
/** Each encode is cut after this long, and the whole set after `IMAGE_VARIANTS_TIME_LIMIT_MS`. */
const ENCODE_TIMEOUT_SECONDS = 30;

/** Whether `key` is an original that gets variants. */
export function hasVariants(key: string): boolean {
  return ORIGINAL_KEY.test(key);
}

/**
 * The widths of the variants of an original `originalWidth` px wide: those of `VARIANT_WIDTHS` up
 * to the largest shown (`min(original, 1600)`) and that one itself, so a 800 px picture is offered
 * at 160, 320, 640 and 800. A width within 15 % of the largest is left out (a 960 beside a 1000
 * would cost an encode and save nothing).
 */
export function variantWidths(originalWidth: number): number[] {
  if (!Number.isInteger(originalWidth) || originalWidth < 1) return [];
  const top = Math.min(originalWidth, WIDEST);
  return [...VARIANT_WIDTHS.filter((width) => width <= top * 0.85), top];
}

/** The storage key of one variant of `originalKey`. */
export function variantKey(originalKey: string, width: number, format: VariantFormat): string {
  if (!hasVariants(originalKey)) throw new Error(`not an image with variants: ${originalKey}`);
  return `${originalKey.slice(0, -'.webp'.length)}.w${width}.${format}`;
}

/** What a variant key names (its original, width and format), or null for any other key. */
export function parseVariantKey(key: string): { original: string; width: number; format: VariantFormat } | null {
  const match = VARIANT_KEY.exec(key);
  if (!match) return null;
  return { original: `${match[1]}.webp`, width: Number(match[2]), format: match[3] as VariantFormat };
}

/** A `<picture>`: the sources to offer (none: a plain `<img>`) and the `<img>` itself. */
export interface ResponsivePicture {
  /** The original, the `<img>`'s own `src`. */
  src: string;
  width: number;
  height: number;
  sizes: string;
  sources: { type: 'image/avif' | 'image/webp'; srcset: string }[];
}

/**
 * The `<picture>` of the image at `url` shown in `slot`. Only our own originals (`/files/images/…`)
 * whose width is known have variants; any other image (a static file, an external address, a
 * board preview) gets no sources and shows as before. Candidates stop at the first width that
 * covers the box at three device pixels per CSS pixel. The answer depends on the URL and width
 * alone, never on whether the variants exist yet.
 */
export function describePicture(url: string, originalWidth: number | null | undefined, slot: ImageSlot): ResponsivePicture {
  const picture: ResponsivePicture = { src: url, width: slot.width, height: slot.height, sizes: slot.sizes, sources: [] };
  const key = url.startsWith(fileUrl('')) ? url.slice(fileUrl('').length) : null;
  if (!key || !hasVariants(key) || !originalWidth) return picture;
  const all = variantWidths(originalWidth);
  const enough = all.findIndex((width) => width >= slot.width * 3);
  const widths = enough === -1 ? all : all.slice(0, enough + 1);
  picture.sources = VARIANT_FORMATS.map(({ format, type }) => ({
    type,
    srcset: widths.map((width) => `${fileUrl(variantKey(key, width, format))} ${width}w`).join(', '),
  }));
  return picture;
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > limit) {
      stream.destroy();
      throw new Error(`original larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** What one run of `generateImageVariants` did. */
export interface VariantsResult {
  /** The original's width (0: nothing to do, the key has no variants or the original is gone). */
  originalWidth: number;
  /** Keys written now; variants already stored are left as they are. */
  written: string[];
}

/**
 * Makes the missing variants of `originalKey` and stores them (the job queue's work, never a
 * request's). The original is decoded once (at most 2000x2000 px), every variant is resized from
 * those pixels and encoded with a time limit; the whole set stops after three minutes. Variants
 * already stored are skipped, so a job run twice costs one look per variant.
 */
export async function generateImageVariants(originalKey: string, options: { storage?: Storage } = {}): Promise<VariantsResult> {
  const storage = options.storage ?? getStorage();
  if (!hasVariants(originalKey)) return { originalWidth: 0, written: [] };
  const stream = await storage.read(originalKey);
  if (!stream) return { originalWidth: 0, written: [] };
  const deadline = Date.now() + IMAGE_VARIANTS_TIME_LIMIT_MS;
  const bytes = await readAll(stream, MAX_ORIGINAL_BYTES);
  const decoded = await sharp(bytes, { limitInputPixels: MAX_ORIGINAL_PIXELS, failOn: 'error', animated: false })
    .timeout({ seconds: ENCODE_TIMEOUT_SECONDS })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = decoded.info;
  const written: string[] = [];
  for (const target of variantWidths(width)) {
    for (const { format } of VARIANT_FORMATS) {
      const key = variantKey(originalKey, target, format);
      if ((await storage.size(key)) !== null) continue;
      if (Date.now() > deadline) throw new Error(`variants of ${originalKey} took longer than ${IMAGE_VARIANTS_TIME_LIMIT_MS} ms`);
      const resized = sharp(decoded.data, { raw: { width, height, channels }, limitInputPixels: MAX_ORIGINAL_PIXELS })
        .timeout({ seconds: ENCODE_TIMEOUT_SECONDS })
        .resize({ width: target, withoutEnlargement: true });
      const data = await (format === 'avif' ? resized.avif(ENCODE.avif) : resized.webp(ENCODE.webp)).toBuffer();
      await storage.put(key, data);
      written.push(key);
    }
  }
  return { originalWidth: width, written };
}
