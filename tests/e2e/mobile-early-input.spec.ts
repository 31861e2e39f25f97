import { test } from '@playwright/test';
import { earlyProfileJourney, earlyTitleJourney, earlyVersionJourney } from './early-input.ts';

test('on a phone, a build log title typed before the editor’s code arrived is kept and published', async ({ browser }) => {
  test.setTimeout(60_000);
  await earlyTitleJourney(browser, test.info().project.use.baseURL!, '/m');
});

test('on a phone, a new project’s title and version name typed before the form’s code arrived are the ones published', async ({ browser }) => {
  test.setTimeout(60_000);
  await earlyVersionJourney(browser, test.info().project.use.baseURL!, '/m');
});

test('on a phone, a bio typed before the profile editor’s code arrived is the bio saved', async ({ browser }) => {
  test.setTimeout(60_000);
  await earlyProfileJourney(browser, test.info().project.use.baseURL!, '/m');
});
