import { test } from '@playwright/test';
import { bomCheckJourney } from './bom-check.ts';

test('on a phone, the Sangaboard’s electronics page lists the part placed on the board but missing from its BOM, in English and Chinese', async ({ page }) => {
  await bomCheckJourney(page, '/m');
});
