import { expect, type Browser, type Page } from '@playwright/test';
import { ownProject, useSession } from './conversation-helpers.ts';

/** Every built script held back (1.5 s unless said), as on a slow phone network. */
async function slowScripts(page: Page, ms = 1500): Promise<void> {
  await page.route('**/_astro/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/**
 * A build log's title typed the moment the page shows, before the editor's code has arrived (a
 * slow connection): the editor keeps it, and the log is published with it, not refused as untitled.
 */
export async function earlyTitleJourney(browser: Browser, baseURL: string, prefix: '' | '/m'): Promise<void> {
  const { project, owner } = await ownProject(baseURL, 'Early Titler');
  const context = await browser.newContext();
  await useSession(context, baseURL, owner);
  const page = await context.newPage();
  await slowScripts(page);
  await page.goto(`${prefix}/d-${project.id}/logs`);
  const title = page.getByRole('textbox', { name: 'Title' });
  await title.click();
  await title.pressSequentially('Typed before the code came');
  // Still the server's editor while the title was typed.
  await expect(page.locator('.project-logs astro-island[ssr]')).toHaveCount(1);
  await expect(page.locator('.project-logs astro-island[ssr]')).toHaveCount(0, { timeout: 20_000 });
  await expect(title).toHaveValue('Typed before the code came');
  await page.getByRole('textbox', { name: 'Log', exact: true }).fill('Both rails measured.');
  await page.getByRole('button', { name: 'Publish log' }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/d-${project.id}/log/1$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Typed before the code came' })).toBeVisible();
  await context.close();
}

/**
 * A new project's title and first version name typed before the form's code arrived: the project
 * is published with both, its version named as typed (with an en dash and a colon).
 */
export async function earlyVersionJourney(browser: Browser, baseURL: string, prefix: '' | '/m'): Promise<void> {
  const { owner } = await ownProject(baseURL, 'Early Versioner');
  const context = await browser.newContext();
  await useSession(context, baseURL, owner);
  const page = await context.newPage();
  // The form's code is large: held back longer, so both fields are typed before it runs.
  await slowScripts(page, 4000);
  await page.goto(`${prefix}/create/project`);
  const form = page.locator('.create-page astro-island[ssr]');
  await expect(form).toHaveCount(1);
  const title = `Early board ${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: /^Title/ }).pressSequentially(title);
  const version = page.getByRole('textbox', { name: 'Version name' });
  await version.fill('');
  await version.pressSequentially('rev B – first run: 2026');
  await expect(form).toHaveCount(1);
  await expect(form).toHaveCount(0, { timeout: 30_000 });
  await expect(version).toHaveValue('rev B – first run: 2026');
  await page.getByRole('combobox', { name: /^Licence/ }).selectOption('MIT');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/create\/success\?id=[a-z0-9]+$/);
  const id = new URL(page.url()).searchParams.get('id')!;
  await page.goto(`${prefix}/d-${id}/versions`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText('rev B – first run: 2026').first()).toBeVisible();
  await context.close();
}

/** A bio typed into the profile editor before its code arrived is the bio saved. */
export async function earlyProfileJourney(browser: Browser, baseURL: string, prefix: '' | '/m'): Promise<void> {
  const { owner } = await ownProject(baseURL, 'Early Profiler');
  const context = await browser.newContext();
  await useSession(context, baseURL, owner);
  const page = await context.newPage();
  await slowScripts(page);
  await page.goto(`${prefix}/user/${owner.user.url}/profile`);
  const bio = page.getByRole('textbox', { name: 'About you' });
  await bio.click();
  await bio.pressSequentially('Builds thermal cameras.');
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeEnabled({ timeout: 20_000 });
  await expect(bio).toHaveValue('Builds thermal cameras.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Your profile is saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'About you' })).toHaveValue('Builds thermal cameras.');
  await context.close();
}
