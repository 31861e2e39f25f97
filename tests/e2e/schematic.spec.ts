import { expect, test, type Page } from '@playwright/test';
import { bitaxeId, openReadyDesign } from './eda-helpers.ts';

/** Whether the page has fetched the schematic viewer's code. */
function watchViewerCode(page: Page): () => boolean {
  let fetched = false;
  page.on('request', (request) => {
    if (/\/_astro\/SchematicViewer\.[^/]*\.js$/.test(request.url())) fetched = true;
  });
  return () => fetched;
}

test('a builder finds a part in the Bitaxe’s schematic, sees its BOM line, shows it on the board and comes back from another part', async ({ page, request }, testInfo) => {
  const id = await bitaxeId(request);
  const viewerFetched = watchViewerCode(page);
  await openReadyDesign(page, `/eda/${id}`);
  // The board first; the schematic's viewer is not part of the page's first load.
  await expect(page.getByRole('tab', { name: 'Board' })).toHaveAttribute('aria-selected', 'true');
  expect(viewerFetched()).toBe(false);

  await page.getByRole('tab', { name: /^Schematic/ }).click();
  await expect(page.getByRole('tab', { name: /^Schematic/ })).toHaveAttribute('aria-selected', 'true');
  const sheets = page.getByRole('navigation', { name: 'Sheets' });
  await expect(sheets.getByRole('link')).toHaveText(['1 bitaxeUltra', '2 Power', '3 ESP32', '4 BM1366', '5 Fan']);
  const search = page.getByRole('searchbox', { name: 'Find in the schematic' });
  await expect(search).toBeVisible();
  expect(viewerFetched()).toBe(true);
  await expect(page).toHaveURL(new RegExp(`/eda/${id}\\?sheet=1$`));

  // Found by its reference: Enter shows it on its sheet, with its part.
  await search.fill('U8');
  await expect(page.getByRole('status').filter({ hasText: /^1 match$/ })).toBeVisible();
  await search.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Match 1 of 1' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?sheet=2&ref=U8$`));
  await expect(sheets.getByRole('link', { name: '2 Power' })).toHaveAttribute('aria-current', 'page');
  const viewport = page.getByRole('group', { name: /^Sheet 2, Power/ });
  await expect.poll(async () => Number(await viewport.getAttribute('data-scale'))).toBeGreaterThan(1);
  const part = page.getByRole('complementary', { name: 'U8' });
  await expect(part.getByRole('definition').first()).toHaveText('INA260');
  await expect(part).toContainText('INA260AIPW');
  await page.screenshot({ path: testInfo.outputPath('schematic-desktop-en.png') });

  // Shown on the board: the board tab, the part picked.
  await part.getByRole('button', { name: 'Show on the board' }).click();
  await expect(page.getByRole('tab', { name: 'Board' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`/eda/${id}$`));
  await expect(page.locator('.board-viewport .part.is-picked')).toHaveAttribute('data-designator', 'U8');

  // Another part picked on the board is offered in the schematic, on its sheet.
  await page.locator('.board-viewport .part[data-designator="U10"]').dispatchEvent('click');
  await expect(page.getByText('U10 is drawn on sheet 2, Power.')).toBeVisible();
  await page.getByRole('button', { name: 'Show in schematic' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?sheet=2&ref=U10$`));
  await expect(page.getByRole('complementary', { name: 'U10' })).toContainText('DS4432U+');

  // Search cycles through the matches with Enter and Shift+Enter, across sheets.
  await search.fill('GND');
  await expect(page.getByRole('status').filter({ hasText: /^\d+ matches$/ })).toBeVisible();
  await search.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Match 1 of \d+$/ })).toBeVisible();
  await search.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Match 2 of \d+$/ })).toBeVisible();
  await search.press('Shift+Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Match 1 of \d+$/ })).toBeVisible();

  // Zoom by keys and buttons; 0 fits the sheet (whichever the match is on).
  const sheet = page.getByRole('group', { name: /^Sheet \d+, / });
  await sheet.focus();
  await page.keyboard.press('0');
  await expect(sheet).toHaveAttribute('data-scale', '1.00');
  await page.keyboard.press('+');
  await expect(sheet).toHaveAttribute('data-scale', '1.50');
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(sheet).toHaveAttribute('data-scale', '2.25');
  await page.getByRole('button', { name: 'Fit sheet' }).click();
  await expect(sheet).toHaveAttribute('data-scale', '1.00');
});

test('an address opens a sheet with a part picked, and a design check shows where it is on the board', async ({ page, request }) => {
  const id = await bitaxeId(request);
  await openReadyDesign(page, `/eda/${id}?sheet=2&ref=U8`);
  await expect(page.getByRole('tab', { name: /^Schematic/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('complementary', { name: 'U8' })).toBeVisible();
  await expect(page.locator('.sheet-marks .symbol.is-picked')).toHaveAttribute('data-ref', 'U8');

  const checks = page.getByRole('region', { name: 'Design checks' });
  await expect(checks.getByRole('heading', { name: 'Design rules (DRC)' })).toBeVisible();
  await checks.locator('[data-eda-focus^="board:"]').first().click();
  await expect(page.getByRole('tab', { name: 'Board' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.board-viewport .check-marker')).toBeVisible();
  await expect.poll(async () => Number(await page.locator('.board-viewport').getAttribute('data-scale'))).toBeGreaterThan(1);

  // The project page names the checks' outcome and leads to them.
  await page.goto(`/d-${id}`);
  const line = page.locator('[data-source-checks] a');
  await expect(line).toHaveText(/^DRC: \d+ errors?, \d+ warnings? · ERC: /);
  await line.click();
  await expect(page).toHaveURL(new RegExp(`/eda/${id}#checks$`));
});

test('without JavaScript each sheet is a picture with its download, the sheets and tabs plain links', async ({ browser, request, baseURL }) => {
  const id = await bitaxeId(request);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto(`/eda/${id}?sheet=3`);
  await expect(page.getByRole('img', { name: 'Schematic sheet 3: ESP32' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download sheet 3 (SVG)' })).toHaveAttribute('href', /\/files\/.+\.svg$/);
  await page.getByRole('navigation', { name: 'Sheets' }).getByRole('link', { name: '4 BM1366' }).click();
  await expect(page.getByRole('img', { name: 'Schematic sheet 4: BM1366' })).toBeVisible();
  await page.getByRole('tab', { name: 'Board' }).click();
  await expect(page.getByRole('img', { name: /^Top side of the board/ })).toBeVisible();
  await context.close();
});

test('the schematic in Chinese', async ({ browser, request, baseURL }, testInfo) => {
  const id = await bitaxeId(request);
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
  const page = await context.newPage();
  await openReadyDesign(page, `/eda/${id}?sheet=1`);
  await expect(page.getByRole('tab', { name: '电路板' })).toBeVisible();
  const search = page.getByRole('searchbox', { name: '在原理图中查找' });
  await search.fill('u8');
  await search.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: '第 1 处，共 1 处' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'U8' }).getByRole('button', { name: '在电路板上显示' })).toBeVisible();
  await expect(page.getByRole('region', { name: '设计检查' }).getByRole('heading', { name: '设计规则（DRC）' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('schematic-desktop-zh.png') });
  await context.close();
});
