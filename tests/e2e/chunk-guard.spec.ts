import { expect, test } from '@playwright/test';
import { breakIslandCode, countLoads, expectNoticeNoLoop } from './chunk-guard.ts';
import { openReadyBoard, sangaboardId } from './eda-helpers.ts';
import { ownProject } from './conversation-helpers.ts';

const baseURL = () => test.info().project.use.baseURL!;

test('an island started on load whose code fails once: the page reloads once and works', async ({ page }) => {
  test.setTimeout(60_000);
  const path = `/eda/${await sangaboardId(page.context().request)}`;
  // Its board rendered (a fresh server renders the demo boards first), then a fresh tab.
  await openReadyBoard(page, path, { live: false });
  await page.goto('about:blank');
  const loads = countLoads(page);
  await breakIslandCode(page, path, /BoardViewer/, () => loads() <= 1);
  await page.goto(path);
  await expect.poll(loads, { timeout: 15_000 }).toBe(2);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('[data-reload-notice]')).toHaveCount(0);
});

for (const locale of ['en-US', 'zh-CN'] as const) {
  test(`an island started on load whose code keeps failing: one reload, then a message with a reload button, never a loop (${locale})`, async ({ page }) => {
    test.setTimeout(90_000);
    const path = `/eda/${await sangaboardId(page.context().request)}`;
    // Its board rendered (a fresh server renders the demo boards first), then a fresh tab.
    await openReadyBoard(page, path, { live: false });
    await page.goto('about:blank');
    await page.context().addCookies([{ name: 'i18n_redirected', value: locale, url: baseURL() }]);
    const loads = countLoads(page);
    await breakIslandCode(page, path, /BoardViewer/, () => true);
    await page.goto(path);
    await expect.poll(loads, { timeout: 15_000 }).toBe(2);
    await expectNoticeNoLoop(page, loads, locale);
  });
}

test('an island started on interaction whose code cannot be loaded: the press reloads the page, and a second failure says so', async ({ page }) => {
  test.setTimeout(90_000);
  const { project } = await ownProject(baseURL(), 'Guarded Owner');
  const path = `/d-${project.id}`;
  const loads = countLoads(page);
  await breakIslandCode(page, path, /ProjectReactions/, () => true);
  await page.goto(path);
  expect(loads()).toBe(1);
  // Reaching for the star asks for its code, which is gone: the page reloads.
  await page.locator('[data-reaction="star"]').hover();
  await expect.poll(loads, { timeout: 15_000 }).toBe(2);
  // Still gone: the second press says so instead of reloading again.
  await page.locator('[data-reaction="star"]').hover();
  await expectNoticeNoLoop(page, loads, 'en-US');
});
