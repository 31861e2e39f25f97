import { expect, test } from '@playwright/test';
import { bitaxeId, openReadyDesign } from './eda-helpers.ts';
import { canvasChange, keepCanvas, placeOnBoard, seenFromTop, turnModelToBottom, watchModelCode } from './model-helpers.ts';

test('a builder turns the Bitaxe’s board in 3D to its bottom, the 3D code fetched only when the tab is opened', async ({ page, request }, testInfo) => {
  const id = await bitaxeId(request);
  const fetched = watchModelCode(page);
  await openReadyDesign(page, `/eda/${id}`);
  await expect(page.getByRole('tab', { name: 'Board' })).toHaveAttribute('aria-selected', 'true');
  expect(fetched()).toBe(false);
  await turnModelToBottom(page);
  expect(fetched()).toBe(true);
  // Keys: + zooms in, which moves the camera off the preset.
  await page.getByRole('img', { name: /in 3D/ }).focus();
  await page.keyboard.press('+');
  await expect(page.getByRole('button', { name: 'Angled' })).toHaveAttribute('aria-pressed', 'false');
  await page.screenshot({ path: testInfo.outputPath('model-desktop-en.png') });
});

test('a BOM line or a part picked on the page is marked in 3D on its side of the Bitaxe’s board, where the board view has it, and the camera stays', async ({ page, request }, testInfo) => {
  const id = await bitaxeId(request);
  await openReadyDesign(page, `/eda/${id}`);
  const r3 = await placeOnBoard(page, 'R3');
  const r5 = await placeOnBoard(page, 'R5');
  const u1 = await placeOnBoard(page, 'U1');
  await page.getByRole('tab', { name: /^3D/ }).click();
  const stage = page.locator('.model-stage');
  await expect(stage).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(stage).toHaveAttribute('data-marked', '0');
  // Both faces as they are before anything is picked.
  await page.getByRole('button', { name: 'Bottom' }).click();
  await keepCanvas(page, 'bottom');
  await page.getByRole('button', { name: 'Top' }).click();
  await keepCanvas(page, 'top');
  const near = (seen: { x: number; y: number }, expected: { x: number; y: number }) => {
    expect(Math.abs(seen.x - expected.x), `x ${seen.x} against ${expected.x}`).toBeLessThan(0.03);
    expect(Math.abs(seen.y - expected.y), `y ${seen.y} against ${expected.y}`).toBeLessThan(0.03);
  };

  // A line picked in the BOM table (below the 3D view): its two resistors, on the top, are marked where the board view has them.
  const table = page.getByRole('table');
  await table.getByRole('row', { name: /^R3, R5/ }).getByRole('button', { name: 'R3, R5' }).click();
  await expect(stage).toHaveAttribute('data-marked', '2');
  await expect(page.getByRole('status').filter({ hasText: 'marked' })).toHaveText('2 parts marked: R3, R5');
  const line = await canvasChange(page, 'top');
  expect(line.amber.count, 'amber marks appear').toBeGreaterThan(100);
  const [seenR3, seenR5] = [await seenFromTop(page, r3), await seenFromTop(page, r5)];
  near(line.amber, { x: (seenR3.x + seenR5.x) / 2, y: (seenR3.y + seenR5.y) / 2 });
  // The camera did not move: the marks are all that changed, and the Top view is still the one shown.
  expect(line.changed).toBeLessThan(0.02);
  await expect(page.getByRole('button', { name: 'Top' })).toHaveAttribute('aria-pressed', 'true');
  await page.locator('.model-viewer').screenshot({ path: testInfo.outputPath('model-marks-line.png') });

  // The two buttons are on the bottom: seen from the top nothing is marked, seen from below they are.
  await table.getByRole('row', { name: /^SW1, SW2/ }).getByRole('button', { name: 'SW1, SW2' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'marked' })).toHaveText('2 parts marked: SW1 (on the bottom), SW2 (on the bottom)');
  const fromTop = await canvasChange(page, 'top');
  expect(fromTop.amber.count + fromTop.pink.count, 'no mark shows through the board').toBe(0);
  await page.getByRole('button', { name: 'Bottom' }).click();
  expect((await canvasChange(page, 'bottom')).amber.count, 'amber marks on the bottom').toBeGreaterThan(100);
  await page.getByRole('button', { name: 'Top' }).click();

  // A part clicked on the board (its tab) is the pink mark in 3D.
  await page.getByRole('tab', { name: 'Board' }).click();
  await page.locator('.board-viewport .part[data-designator="U1"]').click();
  await page.getByRole('tab', { name: /^3D/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'marked' })).toHaveText('1 part marked: U1 (picked)');
  await expect(stage).toHaveAttribute('data-marked', '1');
  const picked = await canvasChange(page, 'top');
  expect(picked.pink.count, 'a pink mark appears').toBeGreaterThan(100);
  near(picked.pink, await seenFromTop(page, u1));
  expect(picked.amber.count).toBe(0);

  // The address names a part: opened in 3D, it is marked there too.
  await openReadyDesign(page, `/eda/${id}?ref=U1`);
  await page.getByRole('tab', { name: /^3D/ }).click();
  await expect(stage).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(stage).toHaveAttribute('data-marked', '1');
  await expect(page.getByRole('status').filter({ hasText: 'marked' })).toHaveText('1 part marked: U1 (picked)');
});
