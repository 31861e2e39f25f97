import { expect, type Page } from '@playwright/test';

/** Whether the page has fetched the 3D viewer's code (its chunk or three.js). */
export function watchModelCode(page: Page): () => boolean {
  let fetched = false;
  page.on('request', (request) => {
    if (/\/_astro\/(ModelViewer|three)[^/]*\.js$/i.test(request.url())) fetched = true;
  });
  return () => fetched;
}

/**
 * Opens the 3D tab of the page shown, waits for the model to be drawn, and turns it to the bottom:
 * the canvas shows something else then (compared as screenshots), and Reset brings the angle back.
 */
export async function turnModelToBottom(page: Page): Promise<void> {
  await page.getByRole('tab', { name: /^3D/ }).click();
  await expect(page.getByRole('tab', { name: /^3D/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?view=3d/);
  const stage = page.locator('.model-stage');
  await expect(stage).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Angled' })).toHaveAttribute('aria-pressed', 'true');
  const canvas = page.getByRole('img', { name: /in 3D/ });
  const angled = await canvas.screenshot();
  await page.getByRole('button', { name: 'Bottom' }).click();
  await expect(page.getByRole('button', { name: 'Bottom' })).toHaveAttribute('aria-pressed', 'true');
  const bottom = await canvas.screenshot();
  expect(bottom.equals(angled), 'the bottom view draws something else').toBe(false);
  await page.getByRole('button', { name: 'Reset view' }).click();
  await expect(page.getByRole('button', { name: 'Angled' })).toHaveAttribute('aria-pressed', 'true');
}

/** Marker pixels among those that changed: amber for a BOM line's parts, pink for the part picked. */
export interface MarkerPixels {
  count: number;
  /** Their centre, as fractions of the canvas's width and height (NaN without any). */
  x: number;
  y: number;
}

export interface CanvasChange {
  /** The share of the canvas's pixels that changed. */
  changed: number;
  amber: MarkerPixels;
  pink: MarkerPixels;
}

const canvasOf = (page: Page) => page.locator('canvas.model-canvas');
/** The name the view as it is now is kept under, to be read. */
const NOW = '#now';

/** Keeps what the 3D view draws now as `name` (the canvas keeps its drawing buffer, so it can be read back). */
export async function keepCanvas(page: Page, name: string): Promise<void> {
  await canvasOf(page).evaluate((canvas: HTMLCanvasElement, key) => {
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(canvas, 0, 0);
    const kept = ((window as unknown as { keptCanvases?: Record<string, ImageData> }).keptCanvases ??= {});
    kept[key] = context.getImageData(0, 0, copy.width, copy.height);
  }, name);
}

/**
 * How the 3D view differs now from what was kept as `name`: how much of it changed, and where
 * the changed pixels of each marker colour are. Only changed pixels count, so the board's own
 * gold pads never pass for a marker.
 */
export async function canvasChange(page: Page, name: string): Promise<CanvasChange> {
  await keepCanvas(page, NOW);
  return page.evaluate(
    ([key, nowKey]) => {
      const kept = (window as unknown as { keptCanvases: Record<string, ImageData> }).keptCanvases;
      const before = kept[key]!;
      const { data: now, width, height } = kept[nowKey]!;
      const sums = { amber: [0, 0, 0], pink: [0, 0, 0] };
      let changed = 0;
      for (let index = 0; index < now.length; index += 4) {
        const [r, g, b] = [now[index]!, now[index + 1]!, now[index + 2]!];
        if (Math.abs(r - before.data[index]!) + Math.abs(g - before.data[index + 1]!) + Math.abs(b - before.data[index + 2]!) < 24) continue;
        changed += 1;
        const colour = r > 200 && g > 150 && g < 235 && b < 110 ? sums.amber : r > 200 && g < 140 && b > 160 ? sums.pink : null;
        if (!colour) continue;
        const pixel = index / 4;
        colour[0] += 1;
        colour[1] += pixel % width;
        colour[2] += Math.floor(pixel / width);
      }
      const centre = ([count, x, y]: number[]) => ({ count: count!, x: x! / count! / width, y: y! / count! / height });
      return { changed: changed / (now.length / 4), amber: centre(sums.amber), pink: centre(sums.pink) };
    },
    [name, NOW] as const,
  );
}

/** The share of the 3D view drawn in solder-mask green: a board's own render on its face, not a plain slab. */
export async function maskGreenShare(page: Page): Promise<number> {
  await keepCanvas(page, NOW);
  return page.evaluate((nowKey) => {
    const { data } = (window as unknown as { keptCanvases: Record<string, ImageData> }).keptCanvases[nowKey]!;
    let green = 0;
    for (let index = 0; index < data.length; index += 4) if (data[index + 1]! > data[index]! + 20 && data[index + 1]! > data[index + 2]! + 20) green += 1;
    return green / (data.length / 4);
  }, NOW);
}

/** A part where the board view (its top) marks it: fractions of the board's width and height from its top left, and the board's size. */
export interface BoardPlace {
  x: number;
  y: number;
  widthMm: number;
  heightMm: number;
}

/** Where the board view marks part `designator` (a part on the top: the side it shows first). */
export async function placeOnBoard(page: Page, designator: string): Promise<BoardPlace> {
  return page.locator(`.board-viewport .part-markers .part[data-designator="${designator}"]`).evaluate((part) => {
    const [, , widthMm, heightMm] = part.closest('svg')!.getAttribute('viewBox')!.split(' ').map(Number);
    const [x, y] = part.getAttribute('transform')!.match(/-?[\d.]+/g)!.map(Number);
    return { x: x! / widthMm!, y: y! / heightMm!, widthMm: widthMm!, heightMm: heightMm! };
  });
}

/**
 * Where the top preset shows a place of the board, as fractions of the canvas: the camera looks
 * straight down at the board's centre, its longer side 80 % of the canvas's height (`presetPose`
 * fits 1.25 × that side in the view), the drawing's up still up.
 */
export async function seenFromTop(page: Page, place: BoardPlace): Promise<{ x: number; y: number }> {
  const box = (await canvasOf(page).boundingBox())!;
  const pxPerMm = box.height / (Math.max(place.widthMm, place.heightMm) * 1.25);
  return {
    x: 0.5 + ((place.x - 0.5) * place.widthMm * pxPerMm) / box.width,
    y: 0.5 + ((place.y - 0.5) * place.heightMm * pxPerMm) / box.height,
  };
}
