import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { api, signUp } from './project-helpers.ts';

/**
 * Pictures in Chromium: a project's photos load as AVIF variants of the width the screen needs
 * (made by the job queue after the upload), keep their space while loading, and the gallery's
 * thumbnails swap the large picture with its sources.
 */

/** A picture with stripes (detail for the encoders) in `colour`. */
function photo(width: number, height: number, colour: string): Promise<Buffer> {
  const stripes = Array.from({ length: 24 }, (_, i) => `<rect x="${(i * width) / 24}" width="${width / 60}" height="${height}" fill="#fff" fill-opacity="0.3"/>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${colour}"/>${stripes}</svg>`))
    .png()
    .toBuffer();
}

async function upload(request: APIRequestContext, purpose: string, buffer: Buffer): Promise<string> {
  const response = await request.post('/api/upload', { multipart: { purpose, file: { name: `${purpose}.png`, mimeType: 'image/png', buffer } } });
  return (await response.json()).result.url as string;
}

/** Waits until the queue has made the variants named (a missing one is a redirect until then). */
async function waitForVariants(request: APIRequestContext, urls: string[]): Promise<void> {
  await expect
    .poll(async () => (await Promise.all(urls.map(async (url) => (await request.get(url, { maxRedirects: 0 })).status()))).every((status) => status === 200), { timeout: 90_000 })
    .toBe(true);
}

const variant = (url: string, width: number, format = 'avif') => url.replace(/\.webp$/, `.w${width}.${format}`);

/** The large picture once loaded: the file the browser chose and its box. */
async function mainPicture(page: Page) {
  const main = page.locator('[data-gallery-main]');
  await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return main.evaluate((img: HTMLImageElement) => ({ currentSrc: new URL(img.currentSrc).pathname, boxWidth: img.getBoundingClientRect().width, alt: img.alt }));
}

/** The layout shift the page has had so far (Chromium's `layout-shift` entries, as CLS adds them up). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );

test('a project page shows its photos as AVIF variants for the screen, and the gallery swaps them', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const request = page.context().request;
  await signUp(request, 'Photo Maker');
  const cover = await upload(request, 'cover', await photo(1600, 1200, '#b0521d'));
  const detail = await upload(request, 'image', await photo(1200, 900, '#1d4fb0'));
  const saved = await api(request, 'release/saveProject', {
    title: 'Striped test card',
    summary: 'Two pictures',
    description: `## The other side\n\n![the other side](${detail})`,
    tags: ['microcontrollers'],
    licence: 'MIT',
    cover,
    publish: true,
  });
  expect(saved.retCode).toBe(0);
  const id = saved.result.id as string;
  await waitForVariants(request, [variant(cover, 960), variant(cover, 160), variant(detail, 960), variant(detail, 160), variant(cover, 640), variant(detail, 640)]);

  // A wide screen: the gallery is 882 CSS px wide, so the 960 px AVIF, not the 1600 px original.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/d-${id}`);
  let main = await mainPicture(page);
  expect(main.currentSrc).toBe(variant(cover, 960));
  expect(main.boxWidth).toBeGreaterThan(850);
  const thumbs = page.getByRole('list', { name: 'Images' }).locator('img');
  await expect(thumbs).toHaveCount(2);
  await expect.poll(() => thumbs.first().evaluate((img: HTMLImageElement) => new URL(img.currentSrc || 'http://x/').pathname)).toBe(variant(cover, 160));
  expect(await layoutShift(page)).toBeLessThan(0.01);
  await page.screenshot({ path: testInfo.outputPath('project-1280.png') });

  // A thumbnail swaps the large picture, its AVIF sources with it.
  await page.getByRole('link', { name: 'Show image 2 of 2' }).click();
  await expect(page.getByRole('link', { name: 'Show image 2 of 2' })).toHaveAttribute('aria-current', 'true');
  await expect.poll(async () => (await mainPicture(page)).currentSrc).toBe(variant(detail, 960));
  main = await mainPicture(page);
  expect(main.alt).toBe('Image 2 of Striped test card');
  // and back
  await page.getByRole('link', { name: 'Show image 1 of 2' }).click();
  await expect.poll(async () => (await mainPicture(page)).currentSrc).toBe(variant(cover, 960));

  // A phone-sized window (360 CSS px, two device pixels each): 328 CSS px of picture, 656 device
  // pixels, the 960 px variant; the cards below take theirs lazily.
  const phone = await page.context().browser()!.newContext({ viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36' });
  const narrow = await phone.newPage();
  await narrow.goto(`/d-${id}`);
  main = await mainPicture(narrow);
  expect(main.currentSrc).toBe(variant(cover, 960));
  expect(main.boxWidth).toBeLessThan(340);
  expect(await layoutShift(narrow)).toBeLessThan(0.01);
  await narrow.screenshot({ path: testInfo.outputPath('project-360.png') });
  await phone.close();
});
