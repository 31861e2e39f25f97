import { test } from '@playwright/test';
import { manyColumnsBomJourney, sangaboardBomJourney } from './bom-board.ts';

// A small phone (the `mobile` project's touch and user agent, at 360 × 740).
test.use({ viewport: { width: 360, height: 740 } });

test('on a phone the Sangaboard’s board stays in view above its BOM down the list and marks the part tapped there, in English and Chinese', async ({ page }) => {
  await sangaboardBomJourney(page, '/m', false);
});

test('on a phone a BOM with many columns (the Bitaxe Ultra’s) scrolls inside its frame under the board, which turns to the side a part is on', async ({ page }) => {
  await manyColumnsBomJourney(page, '/m', false);
});
