import { expect, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { api, signUp } from './project-helpers.ts';

/** A picture with quadrants, large enough for the cropper. */
export const buildPhoto = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#1d6fb0' } })
    .composite([{ input: { create: { width: 800, height: 600, channels: 3, background: '#f2c14e' } }, left: 0, top: 0 }])
    .png()
    .toBuffer();

/**
 * The makes-and-remixes journey, on the desktop pages (`prefix` '') or the phone's (`/m`): an
 * author publishes a project with a BOM; a member posts a make with a cropped photo and sees it in
 * "Makes (1)" and on their profile; the author finds the make in their messages; the member
 * remixes the project, publishes the draft the form opens with, and the lineage shows both ways.
 */
export async function makesJourney(page: Page, browser: Browser, baseURL: string, prefix: '' | '/m') {
  const stamp = Date.now().toString(36);
  // The author, in a browser context of their own.
  const authorContext = await browser.newContext({ baseURL, ...(prefix ? { viewport: page.viewportSize()!, userAgent: await page.evaluate(() => navigator.userAgent) } : {}) });
  const author = await signUp(authorContext.request, 'Author Ada');
  const bom = await authorContext.request.post('/api/upload', { multipart: { purpose: 'attachment', file: { name: 'synth-bom.csv', mimeType: 'text/csv', buffer: Buffer.from('Reference,Value,Quantity\nR1,10k,1\n') } } });
  const bomId = (await bom.json()).result.id as string;
  const title = `Pocket synth ${stamp}`;
  const published = await api(authorContext.request, 'release/saveProject', { title, summary: 'A tiny synth', description: 'Solder it and play.', licence: 'CERN-OHL-S-2.0', attachments: [bomId], publish: true });
  expect(published.retCode).toBe(0);
  const id = published.result.id as string;

  // The maker posts a make with a cropped photo.
  const maker = await signUp(page.context().request, 'Maker Max');
  await page.goto(`${prefix}/d-${id}/makes`);
  await expect(page.getByRole('heading', { name: /^Makes/ })).toContainText('0 makes');
  await page.getByRole('button', { name: 'I built this' }).click();
  await page.getByLabel('Add a photo').setInputFiles({ name: 'build.png', mimeType: 'image/png', buffer: await buildPhoto() });
  const cropper = page.getByRole('dialog', { name: 'Crop image' });
  await expect(cropper.getByTestId('cropper-stage')).toHaveAttribute('data-status', 'ready');
  await cropper.getByRole('button', { name: 'Use this crop' }).click();
  await expect(cropper).toBeHidden();
  await expect(page.locator('.make-photo-list img')).toHaveAttribute('src', /^\/files\/images\//);
  await page.getByLabel('Note').fill('Built it in a mint tin, with a louder speaker.');
  await page.getByLabel('Link to your variant (optional)').fill('https://example.com/mint-synth');
  await page.getByRole('button', { name: 'Post make' }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/d-${id}/makes#make-\\d+$`));
  await expect(page.locator('[data-tab="makes"] .tab-count')).toHaveText('1');
  const make = page.getByTestId('make').first();
  await expect(make).toContainText('Built it in a mint tin, with a louder speaker.');
  await expect(make).toContainText('Built by Maker Max');
  await expect(make.getByRole('link', { name: 'https://example.com/mint-synth' })).toBeVisible();
  await expect(make.getByRole('img', { name: 'Photo 1 of Maker Max’s build' })).toHaveAttribute('src', /\/files\/images\//);

  // On the maker's profile.
  await page.goto(`${prefix}/user/${maker.url}/makes`);
  await expect(page.getByTestId('make').first()).toContainText(`Build of ${title}`);

  // In the author's messages.
  const authorPage = await authorContext.newPage();
  await authorPage.goto(`${prefix}/user/${author.url}/message`);
  await expect(authorPage.locator('.message').first()).toContainText(`Maker Max built your project ${title}`);
  await expect(authorPage.locator('.message').first()).toContainText('Built it in a mint tin');
  // The project's owner may take a make off their project: "Remove", asked first (cancelled here).
  await authorPage.goto(`${prefix}/d-${id}/makes`);
  await authorPage.getByTestId('make').first().getByRole('button', { name: 'Remove' }).click();
  const removing = authorPage.getByRole('dialog', { name: 'Remove this make from your project? Its maker keeps its photos.' });
  await expect(removing).toBeVisible();
  await removing.getByRole('button', { name: 'Cancel' }).click();
  await expect(authorPage.getByTestId('make')).toHaveCount(1);
  await authorContext.close();

  // The maker remixes the project: the form opens on a draft with the files.
  await page.goto(`${prefix}/d-${id}`);
  await page.getByRole('button', { name: 'Remix' }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/create/project\\?draft=[a-z0-9]+$`));
  await expect(page.getByTestId('based-on')).toHaveText(`Based on ${title} by Author Ada`);
  await expect(page.getByRole('textbox', { name: /^Title/ })).toHaveValue(title);
  await expect(page.getByText('synth-bom.csv')).toBeVisible();
  await page.getByRole('textbox', { name: /^Title/ }).fill(`${title} remix`);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/create\/success\?id=[a-z0-9]+$/);
  const remixId = new URL(page.url()).searchParams.get('id')!;

  await page.goto(`${prefix}/d-${remixId}`);
  await expect(page.getByTestId('based-on')).toHaveText(`Based on ${title} by Author Ada`);
  await expect(page.getByRole('link', { name: 'synth-bom.csv' })).toBeVisible();
  await page.goto(`${prefix}/d-${id}`);
  await expect(page.getByTestId('remix-count')).toContainText('Remixed 1 time');
  await expect(page.locator('.project-remixes').getByRole('link', { name: `${title} remix` }).first()).toBeVisible();

  // The maker deletes their make: the tab counts none again.
  await page.goto(`${prefix}/d-${id}/makes`);
  await page.getByTestId('make').first().getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this make? Its photos stay in your uploads.' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: /^Makes/ })).toContainText('0 makes');
  await expect(page.locator('[data-tab="makes"] .tab-count')).toHaveText('0');
}
