import { expect, test } from '@playwright/test';
import { openReadyBoard, sangaboardId } from './eda-helpers.ts';

test('a builder looks at the Sangaboard: sides, layers, zoom, parts on the board from the BOM and back, and orders for three boards', async ({ page, request }, testInfo) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  const id = await sangaboardId(request);
  await openReadyBoard(page, `/eda/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Electronics of Sangaboard/);
  await expect(page.locator('[data-fact="size"]')).toHaveText('65.0 × 56.5 mm (2.56 × 2.22 in)');
  await expect(page.locator('[data-fact="layers"]')).toHaveText('2');
  await expect(page.locator('[data-fact="tool"]')).toHaveText('KiCad');
  await page.screenshot({ path: testInfo.outputPath('eda-desktop-en.png'), fullPage: true });

  // Top and bottom in realistic colours.
  const sides = page.getByRole('group', { name: 'Side' });
  await expect(sides.getByRole('button', { name: 'Top' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('img', { name: /^Top side of the board/ })).toBeVisible();
  await sides.getByRole('button', { name: 'Bottom' }).click();
  await expect(page.getByRole('img', { name: /^Bottom side of the board/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Top side of the board/ })).toHaveCount(0);
  await sides.getByRole('button', { name: 'Top' }).click();

  // Layer by layer: the top silkscreen switched off and on again.
  await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Layers' }).click();
  const silkscreen = page.locator('.board-layer[data-layer$="F_SilkS.gto"]');
  await expect(silkscreen).toBeVisible();
  const checkbox = page.getByRole('checkbox', { name: 'Silkscreen, top' });
  await checkbox.uncheck();
  await expect(silkscreen).toBeHidden();
  await checkbox.check();
  await expect(silkscreen).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Copper, bottom' })).toHaveCount(0);
  // The plated and unplated drills are told apart by their files.
  await expect(page.getByRole('checkbox', { name: /^Drill, both sides sangaboard_v0.4-PTH.drl$/ })).toBeVisible();

  // Zoom by button, wheel and keys.
  const viewport = page.getByRole('group', { name: /^Board view of/ });
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(viewport).toHaveAttribute('data-scale', '1.50');
  await viewport.focus();
  await page.keyboard.press('0');
  await expect(viewport).toHaveAttribute('data-scale', '1.00');
  await viewport.hover();
  await page.mouse.wheel(0, -300);
  await expect.poll(async () => Number(await viewport.getAttribute('data-scale'))).toBeGreaterThan(1);
  await page.keyboard.press('0');
  await expect(viewport).toHaveAttribute('data-scale', '1.00');

  // A BOM line under the pointer marks its parts on the board (in the board view; the board beside the BOM repeats the marks).
  const table = page.getByRole('table');
  const u1 = table.getByRole('row', { name: /ATMEGA32U4-AU/ });
  await u1.hover();
  await expect(page.locator('.board-viewport .part.is-lit')).toHaveCount(1);
  await expect(page.locator('.board-viewport .part.is-lit')).toHaveAttribute('data-designator', 'U1');
  await page.getByRole('heading', { name: 'Bill of materials' }).hover();
  await expect(page.locator('.board-viewport .part.is-lit')).toHaveCount(0);

  // A part clicked on the board selects its line.
  await page.locator('.board-viewport .part[data-designator="R8"]').click();
  const resistors = table.getByRole('row', { name: /^R5, R8, R20/ });
  await expect(resistors).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.board-viewport .part.is-lit')).toHaveCount(3);
  // Pressing the line's designators in the table unselects it.
  await resistors.getByRole('button', { name: 'R5, R8, R20' }).click();
  await expect(resistors).toHaveAttribute('aria-selected', 'false');
  // (The pointer still over the line keeps its parts lit until it leaves.)
  await page.getByRole('heading', { name: 'Bill of materials' }).hover();
  await expect(page.locator('.board-viewport .part.is-lit')).toHaveCount(0);

  // Sorting: quantities either way, designators naturally.
  const qty = table.getByRole('columnheader', { name: /Qty/ });
  await qty.getByRole('button').click();
  await expect(qty).toHaveAttribute('aria-sort', 'ascending');
  await qty.getByRole('button').click();
  await expect(qty).toHaveAttribute('aria-sort', 'descending');
  await expect(table.locator('tbody tr').first().locator('td.col-quantity')).toHaveText('5');
  const designators = table.getByRole('columnheader', { name: /Designators/ });
  await designators.getByRole('button').click();
  await expect(designators).toHaveAttribute('aria-sort', 'ascending');
  await expect(table.locator('tbody tr').first().locator('th')).toHaveText('C1, C6, C7, C10, C13');

  // Filtering over every column; a designator typed exactly also selects its line.
  const filter = page.getByRole('searchbox', { name: 'Filter parts' });
  await filter.fill('capacitor');
  await expect(table.locator('tbody tr')).toHaveCount(4);
  for (const row of await table.locator('tbody tr').all()) await expect(row).toContainText('capacitor');
  await filter.fill('r10');
  await expect(table.getByRole('row', { name: /^R9, R10, R12, R16/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.board-viewport .part.is-lit[data-designator="R10"]')).toHaveCount(1);
  await filter.fill('');
  await expect(table.locator('tbody tr')).toHaveCount(28);

  // The boards field can be emptied and retyped as a person does: 5 means five boards, not 15.
  const boards = page.getByRole('spinbutton', { name: 'Number of boards' });
  await boards.press('ControlOrMeta+a');
  await boards.press('Backspace');
  await expect(boards).toHaveValue('');
  await boards.pressSequentially('5');
  await expect(boards).toHaveValue('5');
  await expect(u1.locator('td.col-quantity')).toHaveText('5');
  // left empty, it shows the count in force again
  await boards.press('ControlOrMeta+a');
  await boards.press('Backspace');
  await boards.blur();
  await expect(boards).toHaveValue('5');

  // Three boards: three times the parts, and exports for three.
  await boards.fill('3');
  await expect(u1.locator('td.col-quantity')).toHaveText('3');
  await expect(table.getByRole('row', { name: /^C1, C6, C7, C10, C13/ }).locator('td.col-quantity')).toHaveText('15');
  const jlc = page.getByRole('link', { name: 'JLCPCB', exact: true });
  await expect(jlc).toHaveAttribute('href', `/eda/${id}/bom.csv?format=jlc&boards=3`);
  await expect(page.getByRole('link', { name: 'CSV (all columns)' })).toHaveAttribute('href', `/eda/${id}/bom.csv?format=plain&boards=3`);
  const download = page.waitForEvent('download');
  await jlc.click();
  const file = await download;
  const csv = await (await request.get(`/eda/${id}/bom.csv?format=jlc&boards=3`)).text();
  expect(csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('Comment,Designator,Footprint,JLCPCB Part #');
  expect(file.suggestedFilename()).toMatch(/\.csv$/);

  // Distributor part numbers lead to the distributor.
  await expect(table.getByRole('link', { name: 'C44854' })).toHaveAttribute('href', 'https://www.lcsc.com/product-detail/C44854.html');
  await expect(table.getByRole('link', { name: 'C44854' })).toHaveAttribute('rel', 'noopener nofollow');

  // The fabrication files, with one zip of them all.
  await expect(page.getByRole('link', { name: 'Download all as zip' })).toHaveAttribute('href', `/eda/${id}/fabrication.zip`);
  await expect(page.getByRole('region', { name: 'Fabrication files' }).getByRole('link', { name: 'sangaboard-gerbers.zip' })).toBeVisible();
  // Layer masks, the viewer's transforms and the swatches run under the page's Content-Security-Policy.
  expect(violations).toEqual([]);
});

test('the project page shows its board and leads to it', async ({ page, request }, testInfo) => {
  const id = await sangaboardId(request);
  await openReadyBoard(page, `/eda/${id}`);
  await page.goto(`/d-${id}`);
  const block = page.getByRole('region', { name: 'Board', exact: true });
  await expect(block.getByRole('img', { name: /^The board of Sangaboard/ })).toBeVisible();
  // Without a cover of its own the board is the page's picture, shown once (no gallery repeating it);
  // link previews get it as JPEG.
  await expect(page.locator('.gallery')).toHaveCount(0);
  await expect(page.locator('.project-head img[src^="/files/boards/"]')).toHaveCount(1);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/files\/boards\/\d+\/preview\.jpg$/);
  await page.screenshot({ path: testInfo.outputPath('project-board-main.png') });
  await expect(block).toContainText('65.0 × 56.5 mm (2.56 × 2.22 in) · 2 copper layers');
  await block.getByRole('link', { name: 'Board, layers and BOM' }).click();
  await expect(page).toHaveURL(new RegExp(`/eda/${id}$`));
});

test('without JavaScript both sides and the whole BOM are there, and the exports work', async ({ browser, request, baseURL }, testInfo) => {
  const id = await sangaboardId(request);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await openReadyBoard(page, `/eda/${id}`, { live: false });
  await expect(page.getByRole('img', { name: /^Top side of the board/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Bottom side of the board/ })).toBeVisible();
  await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(28);
  const href = await page.getByRole('link', { name: 'Mouser', exact: true }).getAttribute('href');
  expect(href).toBe(`/eda/${id}/bom.csv?format=mouser&boards=1`);
  expect((await request.get(href!)).status()).toBe(200);
  await page.screenshot({ path: testInfo.outputPath('eda-no-js.png'), fullPage: true });
  await context.close();
});

test('in Chinese every part of the page is worded in Chinese', async ({ page, request, context, baseURL }, testInfo) => {
  const id = await sangaboardId(request);
  await context.addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
  await openReadyBoard(page, `/eda/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/的电路$/);
  await expect(page.locator('[data-fact="size"]')).toHaveText('65.0 × 56.5 毫米（2.56 × 2.22 英寸）');
  await expect(page.getByRole('group', { name: '面' }).getByRole('button', { name: '底面' })).toBeVisible();
  await expect(page.getByRole('link', { name: '嘉立创 JLCPCB' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('eda-desktop-zh.png'), fullPage: true });
});
