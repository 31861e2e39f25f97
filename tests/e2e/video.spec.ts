import { expect, test } from '@playwright/test';
import { api, signUp } from './project-helpers.ts';
import { expectPlaying, makeClip, uploadVideo, videoCard, waitUntilReady, pickVideo } from './video-helpers.ts';

/**
 * A maker's video from their own page to the player: upload with progress, watch it turn ready,
 * play it with the keyboard, and delete it; an upload stopped halfway continues, also after a
 * reload.
 */
test('upload a clip, see it become ready, play it with the keyboard, and delete it', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const me = await signUp(page.context().request, 'Video Maker');
  const clip = await makeClip('bring-up.mp4');
  const title = `Bring-up ${Date.now().toString(36)}`;
  await page.goto(`/user/${me.url}/video`);
  await expect(page.getByRole('heading', { name: 'Upload a video' })).toBeVisible();
  await pickVideo(page, clip);
  // The title starts as the file's name.
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('bring-up');
  await page.screenshot({ path: testInfo.outputPath('video-upload-picked-en.png'), fullPage: true });
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `“${title}” is uploaded and being prepared` })).toBeVisible({ timeout: 30_000 });
  // It joins the list at once, processing, and turns ready by itself.
  await expect(videoCard(page, title)).toBeVisible();
  await waitUntilReady(page, title);
  await expect(videoCard(page, title).locator('.video-duration')).toHaveText('0:03');
  await page.screenshot({ path: testInfo.outputPath('video-list-en.png'), fullPage: true });

  // The profile counts it.
  await page.goto(`/user/${me.url}`);
  await expect(page.getByTestId('profile-counts')).toContainText('1 video');

  await page.goto(`/user/${me.url}/video`);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await videoCard(page, title).getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/video\/player\?id=/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('link', { name: /Video Maker/ })).toBeVisible();
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(ld).toMatchObject({ '@type': 'VideoObject', name: title, duration: 'PT3S' });
  expect(ld.thumbnailUrl[0]).toMatch(/^http/);
  await expect(page.locator('meta[property="og:video"]')).toHaveAttribute('content', /^http/);
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'video.other');

  // The player: keyboard space plays and pauses.
  const player = page.locator('.video-player');
  await expect(player).toBeVisible();
  await expect(page.locator('.video-player .vds-poster').first()).toBeAttached();
  await player.focus();
  await page.keyboard.press('Space');
  await expectPlaying(page);
  await page.screenshot({ path: testInfo.outputPath('video-player-en.png') });
  await page.keyboard.press('Space');
  await expect.poll(() => page.locator('video').first().evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
  // Playback speed is in the settings menu.
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('menuitem', { name: /Speed/ })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(violations).toEqual([]);

  // Deleting it, after confirming.
  await page.goto(`/user/${me.url}/video`);
  await page.getByRole('button', { name: `Delete “${title}”` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete video' }).click();
  await expect(page.getByRole('status').filter({ hasText: `“${title}” was deleted.` })).toBeVisible();
  await expect(videoCard(page, title)).toHaveCount(0);
  await page.reload();
  await expect(videoCard(page, title)).toHaveCount(0);
});

test('an upload stopped with Cancel resumes, also when the same file is picked after a reload', async ({ page }) => {
  test.setTimeout(180_000);
  const me = await signUp(page.context().request, 'Slow Line');
  const clip = await makeClip('slow-line.mp4', { seconds: 4 });
  const title = `Slow line ${Date.now().toString(36)}`;
  // A slow line: every chunk of bytes waits before it leaves.
  let holdBytes = true;
  await page.route(/\/api\/video\/upload\//, async (route) => {
    if (route.request().method() === 'PATCH' && holdBytes) await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue().catch(() => undefined);
  });
  await page.goto(`/user/${me.url}/video`);
  await pickVideo(page, clip);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Upload stopped' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();

  // Resume continues the same upload.
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();

  // After a reload, the same file is recognised and continued.
  holdBytes = false;
  await page.reload();
  await pickVideo(page, clip);
  await expect(page.getByRole('status').filter({ hasText: 'You began uploading this file before' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('button', { name: 'Resume upload' }).click();
  await expect(page.getByRole('status').filter({ hasText: `“${title}” is uploaded and being prepared` })).toBeVisible({ timeout: 30_000 });
  await waitUntilReady(page, title);
});

test('the player page says a video is being prepared, and plays without JavaScript once ready', async ({ browser, page }, testInfo) => {
  test.setTimeout(180_000);
  const me = await signUp(page.context().request, 'No Script Viewer');
  const clip = await makeClip('no-script.mp4');
  const title = `No script ${Date.now().toString(36)}`;
  await page.goto(`/user/${me.url}/video`);
  await uploadVideo(page, clip, title);
  const href = await videoCard(page, title).getByRole('link', { name: title }).getAttribute('href');
  // Right after saving the owner sees its state; the page checks again by itself.
  await page.goto(href!);
  const state = await page.locator('.video-page').getAttribute('data-video-status');
  if (state !== 'ready') {
    await expect(page.getByRole('status').filter({ hasText: /being prepared/ })).toBeVisible();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute('content', '5');
  }
  await expect(page.locator('.video-player')).toBeVisible({ timeout: 90_000 });

  // A visitor without JavaScript gets the browser's own player with the poster.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const guest = await context.newPage();
  await guest.goto(href!);
  const video = guest.locator('video.video-native');
  await expect(video).toHaveAttribute('controls', '');
  await expect(video).toHaveAttribute('poster', /.+/);
  await expect(video).toHaveAttribute('src', /.+/);
  await guest.screenshot({ path: testInfo.outputPath('video-player-no-js.png') });
  await context.close();
});

test('the videos page and the player in Chinese', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(180_000);
  const me = await signUp(page.context().request, 'Zh Maker');
  await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
  const clip = await makeClip('zh.mp4');
  const title = `调试 ${Date.now().toString(36)}`;
  await page.goto(`/user/${me.url}/video`);
  await expect(page.getByRole('heading', { name: '上传视频' })).toBeVisible();
  await pickVideo(page, clip);
  await page.getByRole('textbox', { name: '标题' }).fill(title);
  await page.getByRole('button', { name: '上传', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '已上传，正在处理' })).toBeVisible({ timeout: 30_000 });
  await expect(videoCard(page, title)).toHaveAttribute('data-video-status', 'ready', { timeout: 90_000 });
  await page.screenshot({ path: testInfo.outputPath('video-list-zh.png'), fullPage: true });
  await videoCard(page, title).getByRole('link', { name: title }).click();
  await expect(page.locator('.video-player')).toBeVisible();
  await expect(page.getByRole('button', { name: '播放' }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('video-player-zh.png') });
});

test('a video linked to a project at upload shows on the project page; a renamed text file fails with its reason', async ({ page }) => {
  test.setTimeout(180_000);
  const request = page.context().request;
  const me = await signUp(request, 'Project Filmer');
  const stamp = Date.now().toString(36);
  const project = await api(request, 'release/saveProject', { title: `Stepper driver ${stamp}`, licence: 'MIT', publish: true });
  expect(project.retCode).toBe(0);
  const clip = await makeClip('stepper.mp4');
  const title = `Stepper demo ${stamp}`;
  await page.goto(`/user/${me.url}/video`);
  await pickVideo(page, clip);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('combobox', { name: 'Link to a project' }).selectOption({ label: `Stepper driver ${stamp}` });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `“${title}” is uploaded` })).toBeVisible({ timeout: 30_000 });
  await waitUntilReady(page, title);

  await page.goto(`/d-${project.result.id}`);
  const block = page.getByRole('region', { name: /^Videos/ });
  await expect(block.getByRole('heading', { name: /1 video/ })).toBeVisible();
  await block.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('link', { name: `Stepper driver ${stamp}` })).toBeVisible();

  // Text under a video's name: saved, then refused when probed, with the reason on its card and page.
  const fake = `Notes ${stamp}`;
  await page.goto(`/user/${me.url}/video`);
  await pickVideo(page, { name: 'notes.mp4', mimeType: 'video/mp4', buffer: Buffer.from('these are my notes, not a video\n'.repeat(200)) });
  await page.getByRole('textbox', { name: 'Title' }).fill(fake);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(videoCard(page, fake)).toHaveAttribute('data-video-status', 'failed', { timeout: 90_000 });
  await expect(videoCard(page, fake)).toContainText('This file is not a video we can read');
  await videoCard(page, fake).getByRole('link', { name: fake }).click();
  await expect(page.getByRole('alert')).toContainText('This file is not a video we can read');
});
