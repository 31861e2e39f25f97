import { expect, test, type Page } from '@playwright/test';
import { call, ownProject, registerOverHttp, useSession } from './conversation-helpers.ts';

const baseURL = () => test.info().project.use.baseURL!;

/**
 * The project page's islands (star and like, owner actions, comments) hydrate with
 * `client:interaction`: a reader downloads none of their code, a visitor who acts gets it at once,
 * and what they did before it arrived still happens.
 */

/** Scripts of the framework and of the project page's islands: a reading visit loads none of them. */
const ISLAND_CODE = /\/_astro\/(client|react|react-dom|i18n|Comments|ProjectReactions|ProjectOwnerActions)\.[\w-]+\.js$/;

function scriptsLoaded(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') urls.push(new URL(request.url()).pathname);
  });
  return urls;
}

/** Holds back every built script for a while, as a slow phone network would. */
async function slowScripts(page: Page, ms: number): Promise<void> {
  await page.route('**/_astro/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

test('a reader of a project page downloads no framework until they reach for a control', async ({ page }) => {
  const { project, owner } = await ownProject(baseURL(), 'Reader Owner');
  await call(owner.api, 'comment/submit', { id: project.id, content: 'The BOM is in the attachments.' });
  const scripts = scriptsLoaded(page);
  await page.goto(`/d-${project.id}`);
  await expect(page.getByRole('heading', { level: 1, name: project.title })).toBeVisible();
  // Everything a reader needs is in the page: counts, the comment, the buttons.
  await expect(page.locator('#comments')).toContainText('The BOM is in the attachments.');
  await expect(page.locator('[data-reaction="star"]')).toBeEnabled();
  await page.locator('#comments').scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((url) => ISLAND_CODE.test(url))).toEqual([]);

  // The pointer coming over the star brings the code, and the island comes alive.
  await page.locator('[data-reaction="star"]').hover();
  await expect(page.locator('astro-island:has([data-reaction="star"])')).not.toHaveAttribute('ssr');
  expect(scripts.some((url) => /\/_astro\/client\./.test(url))).toBe(true);
});

test('a star pressed before the code has arrived is kept, and so is text typed into the comment box', async ({ browser }) => {
  const { project } = await ownProject(baseURL(), 'Early Owner');
  const member = await registerOverHttp(baseURL(), 'Early Presser');
  const context = await browser.newContext();
  await useSession(context, baseURL(), member);
  const page = await context.newPage();
  await slowScripts(page, 800);
  await page.goto(`/d-${project.id}`);
  const star = page.locator('[data-reaction="star"]');
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click(); // the island's code is still on its way
  await expect(star).toHaveAttribute('aria-pressed', 'true', { timeout: 15_000 });
  await expect(star.locator('.count')).toHaveText('1');
  // The star was stored, not only shown: a fresh page shows it.
  await page.unrouteAll({ behavior: 'wait' });
  await page.reload();
  await expect(page.locator('[data-reaction="star"]')).toHaveAttribute('aria-pressed', 'true');

  await slowScripts(page, 800);
  await page.reload();
  // Typed and posted before the comments' code has arrived: the press waits for it, the text is sent.
  const box = page.getByRole('textbox', { name: 'Write a comment' });
  await box.click();
  await box.pressSequentially('Typed while the page was still loading.');
  await expect(page.locator('#comments astro-island')).toHaveAttribute('ssr');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.locator('#comments .comment', { hasText: 'Typed while the page was still loading.' })).toBeVisible({ timeout: 15_000 });
  await expect(box).toHaveValue('');
  await context.close();
});

test('a guest who signs in to star comes back to a starred project without touching anything', async ({ browser }) => {
  const { project } = await ownProject(baseURL(), 'Intent Owner');
  const member = await registerOverHttp(baseURL(), 'Intent Member');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/d-${project.id}`);
  await page.locator('[data-reaction="star"]').click();
  await page.waitForURL((url) => url.searchParams.has('redirect'));
  const back = new URL(new URL(page.url()).searchParams.get('redirect')!);
  expect(back.searchParams.get('intent')).toBe('star');
  await useSession(context, baseURL(), member);
  await page.goto(back.pathname + back.search);
  await expect(page.locator('[data-reaction="star"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('[data-reaction="star"] .count')).toHaveText('1');
  await context.close();
});

test("a card's save button pressed before the menu's code has arrived opens that project's menu; a member's list page loads no island code until then", async ({ browser }) => {
  const { project } = await ownProject(baseURL(), 'Card Owner');
  const member = await registerOverHttp(baseURL(), 'Card Saver');
  const context = await browser.newContext();
  await useSession(context, baseURL(), member);
  const page = await context.newPage();
  const scripts = scriptsLoaded(page);
  await slowScripts(page, 800);
  await page.goto('/newest');
  const card = page.locator('article.project-card', { hasText: project.title });
  const save = card.getByRole('button', { name: `Save “${project.title}” to a collection` });
  await expect(save).toHaveAttribute('aria-expanded', 'false');
  expect(scripts.filter((url) => /CardSaveMenus/.test(url))).toEqual([]);
  await save.click(); // the menu's code is still on its way
  const dialog = page.getByRole('dialog', { name: 'Save to collection' });
  await expect(dialog).toBeVisible();
  await expect(save).toHaveAttribute('aria-expanded', 'true');
  // No collection yet: the form to make the first one, for this project.
  await dialog.getByLabel('Name of the new collection').fill('Early picks');
  await dialog.getByRole('button', { name: 'Create and save' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved to the new collection “Early picks”.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(save).toHaveAttribute('aria-expanded', 'false');
  await expect(save).toBeFocused();
  await context.close();
});
