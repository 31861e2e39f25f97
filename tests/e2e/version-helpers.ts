import { expect, test, type Page } from '@playwright/test';
import { sangaBom, sangaBomNext, sangaboardMovedPadsZip, sangaboardZip } from '../helpers/version-fixtures.ts';
import { api, signUp } from './project-helpers.ts';

/** Rendering two Sangaboards on 2 cores (after the demo boards at start) takes a while. */
const RENDER_TIMEOUT = 120_000;

async function uploadFile(page: Page, name: string, bytes: Uint8Array, mimeType: string): Promise<string> {
  const response = await page.context().request.post('/api/upload', { multipart: { purpose: 'attachment', file: { name, mimeType, buffer: Buffer.from(bytes) } } });
  const body = await response.json();
  expect(body.retCode, JSON.stringify(body)).toBe(0);
  return body.result.id as string;
}

/**
 * The versions journey in the site's `prefix` (`''` on a desktop, `/m` on a phone): a maker
 * publishes the Sangaboard (Gerbers and BOM) as v1, edits it in the form with moved pads and an
 * edited BOM released as `v1.1`, finds both in the Versions tab, and compares them: the BOM's
 * added, removed and changed lines, and the top copper of both renders overlaid.
 */
export async function versionJourney(page: Page, prefix: '' | '/m'): Promise<void> {
  test.setTimeout(60_000 + RENDER_TIMEOUT);
  const request = page.context().request;
  await signUp(request, prefix ? 'Phone Versioner' : 'Desk Versioner');
  const saved = await api(request, 'release/saveProject', {
    title: `Sangaboard ${Date.now().toString(36)}`,
    summary: 'Stepper driver for a microscope',
    description: 'Version one.',
    tags: ['microcontrollers'],
    licence: 'CERN-OHL-S-2.0',
    attachments: [await uploadFile(page, 'sangaboard.zip', await sangaboardZip(), 'application/zip'), await uploadFile(page, 'bom_jlc.csv', sangaBom(), 'text/csv')],
    publish: true,
  });
  expect(saved.retCode).toBe(0);
  const id = saved.result.id as string;

  // The edit: new files in place of the old, released as v1.1 with notes.
  await page.goto(`${prefix}/create/project?id=${id}`);
  await expect(page.getByRole('button', { name: 'Update project' })).toBeEnabled();
  await page.getByRole('button', { name: 'Remove sangaboard.zip' }).click();
  await page.getByRole('button', { name: 'Remove bom_jlc.csv' }).click();
  await page.getByTestId('attachment-input').setInputFiles([
    { name: 'sangaboard.zip', mimeType: 'application/zip', buffer: Buffer.from(await sangaboardMovedPadsZip()) },
    { name: 'bom_jlc.csv', mimeType: 'text/csv', buffer: Buffer.from(sangaBomNext()) },
  ]);
  await expect(page.getByText('Uploaded', { exact: true })).toHaveCount(2);
  await expect(page.getByText('Without a new version, this edit replaces the files of the latest version (v1).')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Release as a new version' }).check();
  // The checkbox and its words sit on one line, on a phone too.
  const checkbox = (await page.getByRole('checkbox', { name: 'Release as a new version' }).boundingBox())!;
  const words = (await page.locator('label', { hasText: 'Release as a new version' }).evaluate((label) => {
    const range = document.createRange();
    range.selectNodeContents(label);
    const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
    return { lines: new Set(rects.map((rect) => Math.round(rect.top))).size, top: Math.min(...rects.map((rect) => rect.top)), bottom: Math.max(...rects.map((rect) => rect.bottom)) };
  }));
  expect(words.bottom - words.top).toBeLessThan(40);
  expect(checkbox.y + checkbox.height / 2).toBeGreaterThan(words.top);
  expect(checkbox.y + checkbox.height / 2).toBeLessThan(words.bottom);
  if (process.env.E2E_SCREENSHOTS) await page.getByRole('checkbox', { name: 'Release as a new version' }).screenshot({ path: `${process.env.E2E_SCREENSHOTS}/release-${prefix ? 'phone' : 'desktop'}.png` }).catch(() => undefined);
  // A new version needs a name: said beside the field, nothing sent.
  await page.getByRole('button', { name: 'Update project' }).click();
  await expect(page.getByText('Give the new version a name.')).toBeVisible();
  await page.getByRole('textbox', { name: 'New version name' }).fill('v1.1');
  await page.getByRole('textbox', { name: 'What changed (notes)' }).fill('Moved the pads.\nNew 3.3 V regulator.');
  await page.getByRole('button', { name: 'Update project' }).click();
  await expect(page).toHaveURL(/\/create\/success\?id=/);

  // The Versions tab lists both, newest first, each with its own files.
  await page.goto(`${prefix}/d-${id}/versions`);
  const versions = page.locator('[data-version]');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0).getByRole('heading', { level: 3 })).toHaveText(/v1\.1\s+Latest/);
  await expect(versions.nth(0)).toContainText('New 3.3 V regulator.');
  await expect(versions.nth(1).getByRole('heading', { level: 3 })).toHaveText('v1');
  await expect(versions.nth(1).getByRole('link', { name: 'sangaboard.zip' })).toHaveAttribute('href', /\/api\/version\/download\?id=/);
  await expect(page.getByRole('link', { name: /^Versions\s*2/ })).toHaveAttribute('aria-current', 'page');

  // Compare (the form starts at v1 → v1.1); the boards may still be rendering: the page says so.
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/d-${id}/versions/compare\\?from=v1&to=v1\\.1$`));
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator('[data-board-diff]').first().getAttribute('data-board-diff');
      },
      { timeout: RENDER_TIMEOUT, intervals: [2_000, 3_000, 5_000] },
    )
    .toBe('changed');
  await expect(page.getByRole('heading', { name: 'What changed from v1 to v1.1' })).toBeVisible();

  const bom = page.getByTestId('bom-diff');
  await expect(bom.getByText('1 line added')).toBeVisible();
  await expect(bom.getByText('1 line removed')).toBeVisible();
  await expect(bom.getByText('3 lines changed')).toBeVisible();
  await expect(bom.locator('tr[data-change="added"]')).toContainText('AP2112K-3.3');
  await expect(bom.locator('tr[data-change="removed"]')).toContainText('MCP1700-3302E');
  const u5 = bom.locator('tr[data-change="changed"]').filter({ hasText: 'CAT24C64' });
  await expect(u5.locator('[data-field="value"] del')).toHaveText('CAT24C32');
  await expect(u5.locator('[data-field="value"] ins')).toHaveText('CAT24C64');
  await expect(bom.locator('tr[data-change="changed"]').filter({ hasText: 'U6' }).locator('[data-field="quantity"]')).toContainText('2 → 3');

  // The board: same size and layers; the top copper changed and is shown first, overlaid.
  const boards = page.getByTestId('board-diff');
  await expect(boards.locator('[data-fact="layers"]')).toHaveText('2 → 2');
  const topCopper = boards.getByRole('radio', { name: /Copper, top/ });
  await expect(topCopper).toBeChecked();
  const shown = boards.locator('.layer-overlay:visible');
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute('data-layer-status', 'changed');
  await expect(shown.getByRole('img', { name: 'Copper, top: v1 and v1.1 overlaid' })).toBeVisible();
  await expect(shown.locator('.overlay-layer.is-before')).toHaveCount(1);
  await expect(shown.locator('.overlay-layer.is-after')).toHaveCount(1);
  await expect(boards.getByText('Orange: only in v1 (removed)')).toBeVisible();
  await expect(boards.getByText('Blue: only in v1.1 (added)')).toBeVisible();
  // Another layer from the picker: the bottom copper did not change.
  await boards.getByRole('radio', { name: /Copper, bottom/ }).check();
  await expect(boards.locator('.layer-overlay:visible')).toHaveAttribute('data-layer-status', 'same');

  // Both pages fit a 360 px wide window, in both languages: nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  for (const locale of ['en-US', 'zh-CN']) {
    await page.context().addCookies([{ name: 'i18n_redirected', value: locale, url: new URL(page.url()).origin }]);
    for (const path of [`${prefix}/d-${id}/versions`, `${prefix}/d-${id}/versions/compare?from=v1&to=v1.1`]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ locale, path, overflow }).toEqual({ locale, path, overflow: 0 });
    }
  }
  await page.context().addCookies([{ name: 'i18n_redirected', value: 'en-US', url: new URL(page.url()).origin }]);

  // An old version's file still downloads after the project dropped it.
  await page.goto(`${prefix}/d-${id}/versions`);
  const href = await page.locator('[data-version="v1"]').getByRole('link', { name: 'bom_jlc.csv' }).getAttribute('href');
  const download = await request.get(href!);
  expect(download.status()).toBe(200);
  expect(await download.text()).toContain('MCP1700-3302E');
}
