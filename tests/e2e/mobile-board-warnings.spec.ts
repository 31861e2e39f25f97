import { test } from '@playwright/test';
import { boardWarningsJourney } from './board-warnings.ts';

test('on a phone, a Gerber set without drill files renders, and its page tells every reader that fabs will reject it, in English and Chinese', async ({ page }) => {
  await boardWarningsJourney(page, '/m');
});
