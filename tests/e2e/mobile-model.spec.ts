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
