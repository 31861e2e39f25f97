import { expect, test } from '@playwright/test';
import { bitaxeId, openReadyDesign } from './eda-helpers.ts';
import { turnModelToBottom, watchModelCode } from './model-helpers.ts';

test('on a phone, the Bitaxe’s board turns in 3D to its bottom, the 3D code fetched only when the tab is opened', async ({ page, request }, testInfo) => {
  const id = await bitaxeId(request);
  const fetched = watchModelCode(page);
  await openReadyDesign(page, `/m/eda/${id}`);
  expect(fetched()).toBe(false);
  await turnModelToBottom(page);
  expect(fetched()).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('model-mobile-en.png') });
});

test('on a phone, the part the address names is marked on the Bitaxe’s board in 3D', async ({ page, request }) => {
  const id = await bitaxeId(request);
  await openReadyDesign(page, `/m/eda/${id}?ref=U1`);
  await page.getByRole('tab', { name: /^3D/ }).click();
  const stage = page.locator('.model-stage');
  await expect(stage).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(stage).toHaveAttribute('data-marked', '1');
  await expect(page.getByRole('status').filter({ hasText: 'marked' })).toHaveText('1 part marked: U1 (picked)');
});
