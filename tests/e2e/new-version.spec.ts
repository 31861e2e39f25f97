import { test } from '@playwright/test';
import { newVersionJourney } from './new-version.ts';

for (const locale of ['en-US', 'zh-CN'] as const) {
  test(`a new deployment never reloads a form with typed input: it offers the new version quietly (${locale})`, async ({ page }) => {
    await newVersionJourney(page, '', locale);
  });
}
