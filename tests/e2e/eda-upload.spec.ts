import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { zipBoard } from '../helpers/board-fixtures.ts';
import { openReadyBoard } from './eda-helpers.ts';
import { api, signUp } from './project-helpers.ts';

/**
 * A maker's own board: attach a Gerber zip in the creation form, publish, and watch the board
 * appear on the electronics page as the job queue renders it; a set without an outline fails
 * with a reason the author can act on, and the wrong file is refused at upload.
 */
test('attach a Gerber zip in the form, publish, and see the board rendered on the electronics page', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page.context().request, 'Board Uploader');
  const stamp = Date.now().toString(36);
  await page.goto('/create/project');
  await page.getByRole('textbox', { name: /^Title/ }).fill(`Pi adapter ${stamp}`);
  await page.getByRole('textbox', { name: 'Summary' }).fill('Connects a Raspberry Pi to an SKR board');
  await page.getByRole('textbox', { name: 'Markdown' }).fill('## Why\n\nNo more hand-made cables.');
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await tags.fill('micro');
  await page.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option').first().click();
  await page.getByRole('combobox', { name: /^Licence/ }).selectOption('CC-BY-4.0');

  // a PNG under a zip's name is refused by its bytes
  await page.getByTestId('attachment-input').setInputFiles({ name: 'gerbers.zip', mimeType: 'application/zip', buffer: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') });
  await expect(page.getByRole('alert').filter({ hasText: 'This is not a design file we accept' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove gerbers.zip' }).click();

  await page.getByTestId('attachment-input').setInputFiles({ name: 'pi-adapter.zip', mimeType: 'application/zip', buffer: Buffer.from(await zipBoard('kicad-rrf', 'outputs/gerber')) });
  await expect(page.getByText('Uploaded', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/create\/success\?id=[a-z0-9]+$/);
  const id = new URL(page.url()).searchParams.get('id')!;

  // the electronics page refreshes itself until the queue has rendered the board
  await page.goto(`/eda/${id}`);
  await expect(page.getByText(/17\.5 × 13\.7 mm/)).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText('KiCad', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /top/i }).first()).toBeVisible();
  // the project page shows the board and leads to it
  await page.goto(`/d-${id}`);
  await page.getByRole('link', { name: /Board, layers and BOM/ }).click();
  await expect(page).toHaveURL(new RegExp(`/eda/${id}$`));
});

test('a Gerber set without an outline tells its author what to add', async ({ page }) => {
  test.setTimeout(120_000);
  const request = page.context().request;
  await signUp(request, 'Outline Forgetter');
  const upload = await request.post('/api/upload', {
    multipart: { purpose: 'attachment', file: { name: 'no-outline-gerbers.zip', mimeType: 'application/zip', buffer: Buffer.from(await zipBoard('kicad-rrf', 'outputs/gerber', (name) => !name.includes('Edge_Cuts') && !name.endsWith('.gbrjob'))) } },
  });
  const file = (await upload.json()).result;
  const saved = await api(request, 'release/saveProject', {
    title: 'Adapter without outline',
    summary: 'Forgot Edge.Cuts',
    description: 'Oops.',
    tags: ['microcontrollers'],
    licence: 'MIT',
    attachments: [file.id],
    publish: true,
  });
  expect(saved.retCode).toBe(0);
  await page.goto(`/eda/${saved.result.id}`);
  await expect(page.getByText('No board outline found: add the outline layer (Edge.Cuts, .gko, .gm1 or the profile) to the Gerber files.')).toBeVisible({ timeout: 90_000 });
  // a guest sees no broken board, only the files
  const guest = await page.context().browser()!.newContext();
  const guestPage = await guest.newPage();
  await guestPage.goto(`/eda/${saved.result.id}`);
  await expect(guestPage.getByText('No board outline found', { exact: false })).toHaveCount(0);
  await expect(guestPage.getByText('no-outline-gerbers.zip')).toBeVisible();
  // and the project page still leads a guest to the files
  await guestPage.goto(`/d-${saved.result.id}`);
  await expect(guestPage.getByRole('region', { name: 'Fabrication files' }).getByRole('link', { name: 'Gerber and fabrication files' })).toHaveAttribute('href', `/eda/${saved.result.id}#fabrication`);
  await guest.close();
});

test('a project with a cover of its own shows its board beside the gallery on a wide screen, below it on a narrow one', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const request = page.context().request;
  await signUp(request, 'Cover And Board');
  const picture = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#b0521d' } }).png().toBuffer();
  const cover = (await (await request.post('/api/upload', { multipart: { purpose: 'cover', file: { name: 'cover.png', mimeType: 'image/png', buffer: picture } } })).json()).result;
  const gerbers = (await (await request.post('/api/upload', { multipart: { purpose: 'attachment', file: { name: 'adapter-gerbers.zip', mimeType: 'application/zip', buffer: Buffer.from(await zipBoard('kicad-rrf')) } } })).json()).result;
  const saved = await api(request, 'release/saveProject', {
    title: 'Adapter with a photo',
    summary: 'A cover and a board',
    description: 'Both.',
    tags: ['microcontrollers'],
    licence: 'MIT',
    cover: cover.url,
    attachments: [gerbers.id],
    publish: true,
  });
  expect(saved.retCode).toBe(0);
  const id = saved.result.id as string;
  await openReadyBoard(page, `/eda/${id}`);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/d-${id}`);
  const gallery = page.locator('.project-media > .gallery');
  const block = page.getByRole('region', { name: 'Board', exact: true });
  await expect(block.getByRole('img', { name: /^The board of Adapter with a photo/ })).toBeVisible();
  // the cover in the gallery, the board in its block: each once, and link previews show the cover
  await expect(gallery.getByRole('img', { name: /Adapter with a photo/ })).toHaveAttribute('src', cover.url);
  await expect(page.locator('.project-head img[src^="/files/boards/"]')).toHaveCount(1);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`${cover.url.replace(/[.]/g, '\\.')}$`));
  let [g, b] = [(await gallery.boundingBox())!, (await block.boundingBox())!];
  expect(b.x).toBeGreaterThanOrEqual(g.x + g.width);
  expect(Math.abs(b.y - g.y)).toBeLessThan(2);
  await page.screenshot({ path: testInfo.outputPath('board-beside-gallery.png') });

  await page.setViewportSize({ width: 800, height: 900 });
  [g, b] = [(await gallery.boundingBox())!, (await block.boundingBox())!];
  expect(b.y).toBeGreaterThanOrEqual(g.y + g.height);
  expect(Math.abs(b.x - g.x)).toBeLessThan(2);
  await page.screenshot({ path: testInfo.outputPath('board-below-gallery.png'), fullPage: true });
});
