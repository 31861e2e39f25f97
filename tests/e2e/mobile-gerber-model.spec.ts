import { expect, test } from '@playwright/test';
import { openReadyBoard, sangaboardId } from './eda-helpers.ts';
import { turnModelToBottom, watchModelCode } from './model-helpers.ts';

test('on a phone, the Sangaboard, known only from its Gerbers, turns in 3D to its bottom, the 3D code fetched only then', async ({ page, request }, testInfo) => {
  const id = await sangaboardId(request);
  const fetched = watchModelCode(page);
  await openReadyBoard(page, `/m/eda/${id}`);
  expect(fetched()).toBe(false);
  await turnModelToBottom(page);
  expect(fetched()).toBe(true);
  await expect(page.locator('.model-stage')).toHaveAttribute('data-state', 'ready');
  await page.screenshot({ path: testInfo.outputPath('gerber-model-mobile.png') });
});
