/**
 * A raster preview of a board render: WebP for cards and pages without JavaScript, and the same
 * picture as JPEG for link previews (Open Graph), which many services do not show in WebP.
 * librsvg (through sharp) would scale an SVG sized in mm or inches twice (pixels = inches ×
 * density² / 72), so the root's width and height are rewritten to the pixels wanted and it is
 * rasterized at density 72. sharp works on libuv's thread pool, so the event loop stays free; its
 * timeout and pixel limit bound what one preview may cost.
 */
import sharp from 'sharp';
import { BoardError } from './errors.ts';

export const PREVIEW_WIDTH_PX = 800;
/**
 * librsvg paints every `<mask>` on a surface the size of the whole picture, so a board whose copper
 * pours carry dozens of clear-polarity masks (EAGLE) costs masks × pixels: about 2.5 s at 800 px
 * for 80 masks. Such boards get a narrower preview, which halves that.
 */
export const HEAVY_PREVIEW_WIDTH_PX = 560;
const HEAVY_MASK_COUNT = 40;
export const PREVIEW_TIMEOUT_SECONDS = 20;
/** The preview is bounded by its own size: 4000 × 4000 at most, whatever the board's aspect. */
const MAX_PREVIEW_PIXELS = 4000 * 4000;

/** What the JPEG's transparent corners (outside the board outline) become: the board viewer's backdrop. */
export const PREVIEW_JPEG_BACKGROUND = '#1b1f23';

export interface Previews {
  webp: Buffer;
  jpeg: Buffer;
}

export interface PreviewOptions {
  widthPx?: number;
  timeoutSeconds?: number;
}

/** The `<svg …>` start tag's width and height, whatever their unit. */
function rootSize(svg: string): { tag: string; width: number; height: number } {
  const tag = /<svg\b[^>]*>/.exec(svg)?.[0];
  if (!tag) throw new BoardError('render_failed', undefined, 'no <svg> element');
  const viewBox = /\sviewBox="([^"]+)"/.exec(tag)?.[1]?.trim().split(/[\s,]+/).map(Number);
  const width = viewBox?.[2] ?? Number.NaN;
  const height = viewBox?.[3] ?? Number.NaN;
  if (!(width > 0 && height > 0)) throw new BoardError('render_failed', undefined, 'empty viewBox');
  return { tag, width, height };
}

/** The SVG with its root sized `widthPx` wide in pixels, its aspect kept. */
export function sizeSvgInPixels(svg: string, widthPx: number): { svg: string; width: number; height: number } {
  const root = rootSize(svg);
  const height = Math.max(1, Math.round((widthPx * root.height) / root.width));
  const tag = root.tag
    .replace(/\swidth="[^"]*"/, '')
    .replace(/\sheight="[^"]*"/, '')
    .replace(/^<svg\b/, `<svg width="${widthPx}" height="${height}"`);
  return { svg: svg.replace(root.tag, tag), width: widthPx, height };
}

/** How wide a preview of `svg` should be: the full width unless its masks make that slow. */
export function previewWidthFor(svg: string): number {
  let masks = 0;
  for (let index = svg.indexOf('<mask'); index >= 0 && masks <= HEAVY_MASK_COUNT; index = svg.indexOf('<mask', index + 5)) masks += 1;
  return masks > HEAVY_MASK_COUNT ? HEAVY_PREVIEW_WIDTH_PX : PREVIEW_WIDTH_PX;
}

/** `svg` as RGBA pixels, `widthPx` wide; `too_complex` past the time limit. */
async function rasterize(svg: string, widthPx: number, timeoutSeconds: number): Promise<{ data: Buffer; pixels: { raw: { width: number; height: number; channels: 4 } } }> {
  const sized = sizeSvgInPixels(svg, widthPx);
  try {
    const { data, info } = await sharp(Buffer.from(sized.svg), { density: 72, limitInputPixels: MAX_PREVIEW_PIXELS })
      .timeout({ seconds: timeoutSeconds })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, pixels: { raw: { width: info.width, height: info.height, channels: 4 } } };
  } catch (error) {
    throw rasterError(error);
  }
}

function rasterError(error: unknown): BoardError {
  const message = error instanceof Error ? error.message : String(error);
  return new BoardError(/timeout/i.test(message) ? 'too_complex' : 'render_failed', undefined, message);
}

/**
 * A WebP and a JPEG of `svg`, `widthPx` wide (by default as `previewWidthFor` says). The SVG is
 * rasterized once (the costly step) and both pictures are encoded from its pixels. Throws
 * `BoardError('too_complex')` past the time limit.
 */
export async function rasterizePreview(svg: string, options: PreviewOptions = {}): Promise<Previews> {
  const { data, pixels } = await rasterize(svg, options.widthPx ?? previewWidthFor(svg), options.timeoutSeconds ?? PREVIEW_TIMEOUT_SECONDS);
  try {
    const [webp, jpeg] = await Promise.all([
      sharp(data, pixels).webp({ quality: 82 }).toBuffer(),
      sharp(data, pixels).flatten({ background: PREVIEW_JPEG_BACKGROUND }).jpeg({ quality: 85, mozjpeg: true }).toBuffer(),
    ]);
    return { webp, jpeg };
  } catch (error) {
    throw rasterError(error);
  }
}

/**
 * A WebP of `svg` that keeps its transparency (outside the outline, the drilled holes), for a
 * face of the 3D model; the alpha is kept lossless so the holes' edges stay where they are.
 */
export async function rasterizeTexture(svg: string, widthPx: number, timeoutSeconds = PREVIEW_TIMEOUT_SECONDS): Promise<{ webp: Buffer; width: number; height: number }> {
  const { data, pixels } = await rasterize(svg, widthPx, timeoutSeconds);
  try {
    const webp = await sharp(data, pixels).webp({ quality: 80, alphaQuality: 100 }).toBuffer();
    return { webp, width: pixels.raw.width, height: pixels.raw.height };
  } catch (error) {
    throw rasterError(error);
  }
}
