import { test } from '@playwright/test';
import { kicadLayersJourney } from './kicad-layers.ts';

test('KiCad 9’s courtyard and fab layers are named as such and start switched off in the layer view', async ({ page }) => {
  await kicadLayersJourney(page, '');
});
