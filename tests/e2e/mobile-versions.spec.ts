import { test } from '@playwright/test';
import { versionJourney } from './version-helpers.ts';

// Runs in the `mobile` project (a Pixel 7: phone viewport, touch, phone user agent).

test('on a phone: release v1.1 from the edit form, then compare its BOM and copper with v1', async ({ page }) => {
  await versionJourney(page, '/m');
});
