import { test } from '@playwright/test';
import { boardWarningsJourney } from './board-warnings.ts';

test('a Gerber set without drill files renders, and its page tells every reader that fabs will reject it, in English and Chinese', async ({ page }) => {
  await boardWarningsJourney(page, '');
});
