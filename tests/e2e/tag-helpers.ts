import { expect, type Page } from '@playwright/test';
import { signUp } from './project-helpers.ts';

/**
 * The open-tags journey, on whatever screen `page` is: a new member finds the Chinese-named tag
 * by typing part of its Chinese name, names a tag that does not exist yet (told it is new and
 * created when publishing), publishes, and finds the project on the new tag's page, which is
 * headed with the tag's one name; the curated tag's page carries both of its names.
 * `prefix` is `''` on desktop, `/m` on the phone.
 */
export async function tagJourney(page: Page, prefix: '' | '/m', screenshot?: string): Promise<void> {
  await signUp(page.context().request, 'Tagging Tao');
  const stamp = Date.now().toString(36);
  const title = `Reflow hot plate ${stamp}`;
  const newTag = `Hot plate ${stamp}`;
  await page.goto(`${prefix}/create/project`);
  await page.getByRole('textbox', { name: /^Title/ }).fill(title);
  await page.getByRole('textbox', { name: 'Summary' }).fill('A PTC hot plate for reflowing small boards');
  await page.getByRole('combobox', { name: /^Licence/ }).selectOption('CERN-OHL-S-2.0');

  const tags = page.getByRole('combobox', { name: 'Tags' });
  // Part of a Chinese name finds the tag, shown in Chinese with its English name beside it.
  await tags.fill('单片');
  const suggestion = page.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option', { name: /^单片机 · Microcontrollers/ });
  await expect(suggestion).toBeVisible();
  await suggestion.click();
  const chosen = page.getByRole('list', { name: 'Chosen tags' });
  await expect(chosen).toContainText('单片机');

  // A name that is no tag: Enter adds it, saying it is new.
  await tags.fill(newTag);
  await tags.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `New tag: ${newTag}. It is created when you publish.` })).toBeVisible();
  await expect(chosen).toContainText(newTag);
  await expect(tags).toHaveValue('');
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: false });

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/create/success\\?id=[a-z0-9]+$`));

  await page.goto(`${prefix}/newest?tag=${encodeURIComponent(`hot-plate-${stamp}`)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Tag: ${newTag}` })).toBeVisible();
  await expect(page.getByRole('link', { name: title }).first()).toBeVisible();

  await page.goto(`${prefix}/newest?tag=microcontrollers`);
  await expect(page.getByRole('heading', { level: 1, name: 'Tag: Microcontrollers · 单片机' })).toBeVisible();
  await expect(page.getByRole('link', { name: title }).first()).toBeVisible();
}
