import { test } from '@playwright/test';
import { buildACollection } from './collection-journey.ts';

test('a member builds a collection: from a project page and a card, reordered, private then public', async ({ browser }) => {
  await buildACollection(browser, test.info().project.use.baseURL!, '');
});
