import { expect, type Page } from '@playwright/test';

/** Whether the page has fetched the 3D viewer's code (its chunk or three.js). */
export function watchModelCode(page: Page): () => boolean {
  let fetched = false;
  page.on('request', (request) => {
    if (/\/_astro\/(ModelViewer|three)[^/]*\.js$/i.test(request.url())) fetched = true;
  });
  return () => fetched;
}

/**
 * Opens the 3D tab of the page shown, waits for the model to be drawn, and turns it to the bottom:
 * the canvas shows something else then (compared as screenshots), and Reset brings the angle back.
 */
export async function turnModelToBottom(page: Page): Promise<void> {
  await page.getByRole('tab', { name: /^3D/ }).click();
  await expect(page.getByRole('tab', { name: /^3D/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?view=3d/);
  const stage = page.locator('.model-stage');
  await expect(stage).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Angled' })).toHaveAttribute('aria-pressed', 'true');
  const canvas = page.getByRole('img', { name: /in 3D/ });
  const angled = await canvas.screenshot();
  await page.getByRole('button', { name: 'Bottom' }).click();
  await expect(page.getByRole('button', { name: 'Bottom' })).toHaveAttribute('aria-pressed', 'true');
  const bottom = await canvas.screenshot();
  expect(bottom.equals(angled), 'the bottom view draws something else').toBe(false);
  await page.getByRole('button', { name: 'Reset view' }).click();
  await expect(page.getByRole('button', { name: 'Angled' })).toHaveAttribute('aria-pressed', 'true');
}
