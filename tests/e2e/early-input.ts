import { expect, type Browser } from '@playwright/test';
import { ownProject, useSession } from './conversation-helpers.ts';

/**
 * A build log's title typed the moment the page shows, before the editor's code has arrived (a
 * slow connection): the editor keeps it, and the log is published with it, not refused as untitled.
 */
export async function earlyTitleJourney(browser: Browser, baseURL: string, prefix: '' | '/m'): Promise<void> {
  const { project, owner } = await ownProject(baseURL, 'Early Titler');
  const context = await browser.newContext();
  await useSession(context, baseURL, owner);
  const page = await context.newPage();
  // Every built script held back 1.5 s, as on a slow phone network.
  await page.route('**/_astro/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
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
