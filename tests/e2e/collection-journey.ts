import { expect, type Browser } from '@playwright/test';
import { call, ownProject, registerOverHttp, useSession } from './conversation-helpers.ts';

/**
 * Building a collection, as a member does it on desktop (`prefix` '') or on a phone ('/m'):
 * create it from a project page, add another project from a card, reorder, make it private (a
 * guest then gets not-found), make it public again (a guest sees it, in the order chosen).
 */
export async function buildACollection(browser: Browser, baseURL: string, prefix: '' | '/m'): Promise<void> {
  const { project: first, owner } = await ownProject(baseURL, 'Collected Maker');
  const secondTitle = `Second board ${Date.now().toString(36)}`;
  const published = await call<{ id: string }>(owner.api, 'release/saveProject', { title: secondTitle, licence: 'MIT', publish: true });
  expect(published.retCode).toBe(0);
  const second = { id: published.result.id, title: secondTitle };
  const curator = await registerOverHttp(baseURL, 'Curator');
  const suffix = Math.random().toString(36).slice(2, 7);
  const name = `Radio picks ${suffix}`;
  const collectionPath = `${prefix}/user/${curator.user.url}/collections/radio-picks-${suffix}`;

  const context = await browser.newContext();
  await useSession(context, baseURL, curator);
  const page = await context.newPage();

  // From the project page: "Save" opens a dialog; with no collection yet, the form to make one.
  await page.goto(`${prefix}/d-${first.id}`);
  await page.getByTestId('save-to-collection').first().click();
  const dialog = page.getByRole('dialog', { name: 'Save to collection' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Name of the new collection').fill(name);
  await dialog.getByRole('button', { name: 'Create and save' }).click();
  await expect(dialog.getByRole('status')).toHaveText(`Saved to the new collection “${name}”.`);
  await expect(dialog.getByRole('checkbox', { name })).toBeChecked();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // From a card on the maker's profile: the menu lists the collection, unticked for this project.
  await page.goto(`${prefix}/user/${owner.user.url}`);
  await page.getByRole('button', { name: `Save “${second.title}” to a collection` }).click();
  const cardDialog = page.getByRole('dialog', { name: 'Save to collection' });
  const box = cardDialog.getByRole('checkbox', { name });
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(cardDialog.getByRole('status')).toHaveText(`Saved to “${name}”.`);
  await cardDialog.getByRole('button', { name: 'Done' }).click();

  // The member's Collections tab lists it; its page shows both, in the order they were added.
  await page.goto(`${prefix}/user/${curator.user.url}/collections`);
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`${collectionPath}$`));
  const titles = page.locator('.grid .project-card h3 a');
  await expect(titles).toHaveText([first.title, second.title]);
  await expect(page.getByTestId('list-total')).toHaveText('2 projects');

  // Reorder: the second one up, then Done reloads the page in the new order. The owner's tools
  // start when the browser is idle (`client:idle`): a press before that does nothing yet.
  await expect(page.locator('astro-island', { has: page.getByRole('button', { name: 'Organise' }) })).not.toHaveAttribute('ssr');
  await page.getByRole('button', { name: 'Organise' }).click();
  const organiser = page.getByRole('dialog', { name: 'Organise the projects' });
  await organiser.getByRole('button', { name: `Move “${second.title}” up` }).click();
  await expect(organiser.getByRole('listitem')).toHaveText([new RegExp(second.title), new RegExp(first.title)]);
  await organiser.getByRole('button', { name: 'Done' }).click();
  await expect(titles).toHaveText([second.title, first.title]);

  // Private: the owner sees the badge, a guest gets the not-found page.
  await page.getByRole('button', { name: 'Make private' }).click();
  await expect(page.getByTestId('private-badge')).toHaveText('Private');
  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  const hidden = await guestPage.goto(collectionPath);
  expect(hidden?.status()).toBe(404);
  await guestPage.goto(`${prefix}/user/${curator.user.url}/collections`);
  await expect(guestPage.getByRole('link', { name })).toHaveCount(0);

  // Public again: the guest sees it, with its projects in the curator's order.
  await page.getByRole('button', { name: 'Make public' }).click();
  await expect(page.getByTestId('private-badge')).toHaveCount(0);
  const shown = await guestPage.goto(collectionPath);
  expect(shown?.status()).toBe(200);
  await expect(guestPage.getByRole('heading', { name })).toBeVisible();
  await expect(guestPage.locator('.grid .project-card h3 a')).toHaveText([second.title, first.title]);
  // A guest's cards carry no save control.
  await expect(guestPage.getByTestId('save-to-collection')).toHaveCount(0);

  await guest.close();
  await context.close();
}
