import { test } from '@playwright/test';
import { manyColumnsBomJourney, sangaboardBomJourney } from './bom-board.ts';

test.use({ viewport: { width: 1440, height: 900 } });

test('beside the Sangaboard’s BOM the board stays in view down the list and marks the part pointed at and picked there, in English and Chinese', async ({ page }) => {
  await sangaboardBomJourney(page, '', true);
});

test('a BOM with many columns (the Bitaxe Ultra’s) scrolls inside its frame beside the board, which turns to the side a part is on', async ({ page }) => {
  await manyColumnsBomJourney(page, '', true);
});
