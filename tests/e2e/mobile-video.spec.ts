import { expect, test } from '@playwright/test';
import { signUp } from './project-helpers.ts';
import { expectPlaying, makeClip, videoCard, pickVideo } from './video-helpers.ts';

/** On a phone: the upload page fits a 360 px screen, and the player page plays with a tap. */
test('a phone uploads on a 360 px screen and plays the video', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 780 });
  const me = await signUp(page.context().request, 'Phone Filmer');
  const clip = await makeClip('phone.mp4');
  const title = `Phone clip ${Date.now().toString(36)}`;
  await page.goto(`/m/user/${me.url}/video`);
  await expect(page.getByRole('heading', { name: 'Upload a video' })).toBeVisible();
  await pickVideo(page, clip);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await fits()).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('mobile-video-upload-en.png'), fullPage: true });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `“${title}” is uploaded and being prepared` })).toBeVisible({ timeout: 30_000 });
  await expect(videoCard(page, title)).toHaveAttribute('data-video-status', 'ready', { timeout: 90_000 });
  expect(await fits()).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('mobile-video-list-en.png'), fullPage: true });

  await videoCard(page, title).getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/m\/video\/player\?id=/);
  await expect(page.locator('.video-player')).toBeVisible();
  expect(await fits()).toBe(true);
  await page.getByRole('button', { name: 'Play' }).first().tap();
  await expectPlaying(page);
  await page.screenshot({ path: testInfo.outputPath('mobile-video-player-en.png'), fullPage: true });

  await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
  await page.reload();
  await expect(page.getByRole('button', { name: '播放' }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('mobile-video-player-zh.png'), fullPage: true });
  await page.goto(`/m/user/${me.url}/video`);
  await expect(page.getByRole('heading', { name: '上传视频' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('mobile-video-list-zh.png'), fullPage: true });
});
