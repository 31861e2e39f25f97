import { test } from '@playwright/test';
import { tagJourney } from './tag-helpers.ts';

test('an author picks a tag by its Chinese name, adds a new tag, publishes, and finds the project on both tag pages', async ({ page }) => {
  await tagJourney(page, '', process.env.E2E_SCREENSHOTS ? `${process.env.E2E_SCREENSHOTS}/tags-desktop.png` : undefined);
});
