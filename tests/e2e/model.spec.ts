import { expect, test } from '@playwright/test';
import { bitaxeId, openReadyDesign } from './eda-helpers.ts';
import { turnModelToBottom, watchModelCode } from './model-helpers.ts';

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
