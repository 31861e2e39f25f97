import { expect, test } from '@playwright/test';
import { breakIslandCode, countLoads, expectNoticeNoLoop, WORDS } from './chunk-guard.ts';
import { openReadyBoard, sangaboardId } from './eda-helpers.ts';

const baseURL = () => test.info().project.use.baseURL!;

test('on a phone in Chinese, an island whose code keeps failing: one reload, then a message above the tab bar with a reload button, never a loop', async ({ page }) => {
  test.setTimeout(90_000);
  const path = `/m/eda/${await sangaboardId(page.context().request)}`;
  // Its board rendered (a fresh server renders the demo boards first), then a fresh tab.
  await openReadyBoard(page, path, { live: false });
  await page.goto('about:blank');
  await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL() }]);
  const loads = countLoads(page);
  await breakIslandCode(page, path, /BoardViewer/, () => true);
  await page.goto(path);
  await expect.poll(loads, { timeout: 15_000 }).toBe(2);
  const notice = page.getByRole('alert').filter({ hasText: WORDS['zh-CN'].failed });
  await expect(notice).toBeVisible({ timeout: 15_000 });
  const box = (await notice.boundingBox())!;
  const tabs = (await page.locator('.m-tabs').boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(tabs.y);
  await expectNoticeNoLoop(page, loads, 'zh-CN');
});
