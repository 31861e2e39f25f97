import { test } from '@playwright/test';
import { followJourney } from './follow-helpers.ts';

test('a member follows another, who publishes: it reaches their feed, home page and messages', async ({ page, context, baseURL }) => {
  await followJourney(page, context, baseURL!, '');
});
