import { test } from '@playwright/test';
import { versionJourney } from './version-helpers.ts';

test('release v1.1 of a board from the edit form, then compare its BOM and copper with v1', async ({ page }) => {
  await versionJourney(page, '');
});
