import { test } from '@playwright/test';
import { newVersionJourney } from './new-version.ts';

test('on a phone, a new deployment never reloads a form with typed input: it offers the new version quietly', async ({ page }) => {
  await newVersionJourney(page, '/m', 'en-US');
});
