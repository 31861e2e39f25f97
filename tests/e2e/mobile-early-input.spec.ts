import { test } from '@playwright/test';
import { earlyTitleJourney } from './early-input.ts';

test('on a phone, a build log title typed before the editor’s code arrived is kept and published', async ({ browser }) => {
  test.setTimeout(60_000);
  await earlyTitleJourney(browser, test.info().project.use.baseURL!, '/m');
});
