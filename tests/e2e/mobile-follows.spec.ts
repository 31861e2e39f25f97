import { test } from '@playwright/test';
import { followJourney } from './follow-helpers.ts';

test('on a phone: following a member brings their new project to the feed, the home page and messages', async ({ page, context, baseURL }) => {
  await followJourney(page, context, baseURL!, '/m');
});
