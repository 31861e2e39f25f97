import { test } from '@playwright/test';
import { moderatePostsJourney } from './moderation-posts.ts';

test('on a phone in Chinese, a build log and a collection are reported, hidden from /m/admin/reports, and the log restored', async ({ browser }) => {
  await moderatePostsJourney(browser, test.info().project.use.baseURL!, '/m', 'zh-CN', { width: 360, height: 740 });
});
