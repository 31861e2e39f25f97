import { test } from '@playwright/test';
import { hiddenJourney, resumeJourney } from './video-recovery.ts';

test('on a phone, a film whose range requests fail mid-play goes on where it was', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await resumeJourney(page, testInfo.project.use.baseURL!, '/m', testInfo);
});

test('on a phone, in Chinese, a film hidden by a moderator while a guest watches says it is no longer available', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await hiddenJourney(page, testInfo.project.use.baseURL!, '/m', 'zh-CN', testInfo);
});
