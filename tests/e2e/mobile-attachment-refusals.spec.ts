import { test } from '@playwright/test';
import { refusedAttachmentsJourney } from './attachment-refusals.ts';

test('on a phone, a video among the design files points to the Videos tab, and a refused file offers no “Try again”', async ({ page }) => {
  await refusedAttachmentsJourney(page, '/m', 'en-US');
});

test('on a phone in Chinese, a video among the design files points to the Videos tab, and a refused file offers no retry', async ({ page }) => {
  await refusedAttachmentsJourney(page, '/m', 'zh-CN');
});
