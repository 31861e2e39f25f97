import { expect, test, type Locator } from '@playwright/test';
import { registerAsVisitor } from './visitor.ts';

// Runs in the `mobile` project (a Pixel 7: phone viewport, touch, phone user agent).

/**
 * Waits until the island has hydrated (Astro drops the island's `ssr` mark then); comments start
 * when the visitor comes to them (`client:interaction`), here a finger landing on the section.
 */
async function hydrated(container: Locator) {
  await container.locator('astro-island').first().dispatchEvent('touchstart');
  await container.locator('astro-island:not([ssr])').first().waitFor();
}

test('a phone walks from home to a project, reads its comments and signs in to write one', async ({ page }) => {
  // A member of the test's own (a demo member would soon reach the comments-per-minute limit on repeats).
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const member = { email: `phone-${suffix}@example.com`, password: 'solder-bridge-42', nickname: `Phone Reader ${suffix}` };
  expect((await registerAsVisitor(member)).body.retCode).toBe(0);

  await page.goto('/');
  await expect(page).toHaveURL(/\/m$/);
  const tabs = page.getByRole('navigation', { name: 'Sections' });
  await expect(tabs.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();

  // A recommended project whose card counts at least one comment.
  const recommended = page.getByRole('region', { name: 'Recommended projects' });
  const card = recommended.getByRole('article').filter({ hasText: /Comments\s*[1-9]/ }).first();
  const title = (await card.getByRole('heading').innerText()).trim();
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/m\/d-[^/?#]+$/);
  const projectUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  const comments = page.getByRole('region', { name: /^Comments/ });
  await comments.scrollIntoViewIfNeeded();
  await expect(comments.getByRole('heading', { name: /^Comments \d+$/ })).toBeVisible();
  await expect(comments.getByRole('article').first()).toBeVisible();
  await expect(comments.getByRole('navigation', { name: 'Sort comments' }).getByRole('link', { name: 'Newest first' })).toBeVisible();

  // A guest may start writing; signing in keeps the text.
  await hydrated(page.locator('#comments'));
  const text = `Built one with a phone in hand ${Date.now()}`;
  await comments.getByLabel('Write a comment').fill(text);
  await comments.getByRole('button', { name: 'Sign in to comment' }).click();
  await expect(page).toHaveURL(/\/sso\/login\?/);
  await expect(page.getByRole('heading', { name: 'Sign in to Copperhub' })).toBeVisible();
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back on the same /m project page, at the comments.
  await expect(page).toHaveURL(`${projectUrl}#comments`);
  await expect(tabs.getByRole('link', { name: 'Me', exact: true })).toBeVisible();
  await comments.scrollIntoViewIfNeeded();
  await hydrated(page.locator('#comments'));
  await expect(comments.getByLabel('Write a comment')).toHaveValue(text);
  await comments.getByRole('button', { name: 'Post comment' }).click();
  await expect(comments.getByRole('article', { name: member.nickname }).filter({ hasText: text })).toBeVisible();
});
