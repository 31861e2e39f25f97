import { test } from '@playwright/test';
import { makesJourney } from './makes-helpers.ts';

test('a member posts a make with a cropped photo and remixes the project; the author hears of the make; the lineage shows both ways', async ({ page, browser, baseURL }) => {
  await makesJourney(page, browser, baseURL!, '');
});
