import { test } from '@playwright/test';
import { makesJourney } from './makes-helpers.ts';

test('on a phone: a member posts a make with a cropped photo and remixes the project; the lineage shows both ways', async ({ page, browser, baseURL }) => {
  await makesJourney(page, browser, baseURL!, '/m');
});
