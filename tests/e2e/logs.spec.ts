import { test } from '@playwright/test';
import { buildLogJourney } from './logs-journey.ts';

test('an owner posts a build log with a picture; it shows on the Logs tab and at its own address; another member comments on it; the owner edits and deletes it', async ({ browser }) => {
  await buildLogJourney(browser, test.info().project.use.baseURL!, { phone: false });
});
