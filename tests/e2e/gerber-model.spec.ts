import { expect, test } from '@playwright/test';
import { openReadyBoard, sangaboardId } from './eda-helpers.ts';
import { canvasChange, keepCanvas, maskGreenShare, placeOnBoard, seenFromTop, turnModelToBottom } from './model-helpers.ts';

test('the Sangaboard, known only from its Gerbers, turns in 3D with its renders as faces, and its ATmega is marked where the board view has it', async ({ page, request }, testInfo) => {
  const id = await sangaboardId(request);
  await openReadyBoard(page, `/eda/${id}`);
  const u1 = await placeOnBoard(page, 'U1');
  await turnModelToBottom(page);
  await page.getByRole('button', { name: 'Top' }).click();
  await expect(page.getByRole('button', { name: 'Top' })).toHaveAttribute('aria-pressed', 'true');
  // Its face is its top render: mostly solder mask, seen from above (the board fills about a fifth of this wide canvas).
  expect(await maskGreenShare(page)).toBeGreaterThan(0.1);
  await keepCanvas(page, 'top');

  await page.getByRole('table').getByRole('row', { name: /^U1\b/ }).getByRole('button', { name: 'U1' }).click();
  await expect(page.locator('.model-stage')).toHaveAttribute('data-marked', '1');
  const marked = await canvasChange(page, 'top');
  expect(marked.amber.count, 'an amber mark appears').toBeGreaterThan(50);
  const expected = await seenFromTop(page, u1);
  expect(Math.abs(marked.amber.x - expected.x)).toBeLessThan(0.03);
  expect(Math.abs(marked.amber.y - expected.y)).toBeLessThan(0.03);
  await page.locator('.model-viewer').screenshot({ path: testInfo.outputPath('gerber-model-desktop.png') });
});
