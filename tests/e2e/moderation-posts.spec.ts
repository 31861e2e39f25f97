import { test } from '@playwright/test';
import { moderatePostsJourney } from './moderation-posts.ts';

test('a member reports a build log and a collection; a moderator hides both; guests lose them, their author is told why; the log is restored', async ({ browser }) => {
  await moderatePostsJourney(browser, test.info().project.use.baseURL!, '', 'en-US');
});
