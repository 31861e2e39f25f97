import { expect, test } from '@playwright/test';
import { holdPrefetches, recordPrefetches } from './prefetch-helpers.ts';

/**
 * On a phone there is no hover: a guest's links are prefetched once they have been in view for
 * 300 ms, as the page is scrolled, still never more than five at once.
 */
test('scrolling the phone home page prefetches the cards that come into view, never more than five at once', async ({ page }) => {
  const prefetches = recordPrefetches(page);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/m');
  // The server is made to wait: every prefetch of a project is held while the visitor scrolls.
  const hold = await holdPrefetches(page);
  const titles = page.locator('article.project-card h3 a');
  await expect(titles.nth(7)).toBeAttached();
  const seen: string[] = [];
  for (let i = 0; i < 8; i++) {
    const link = titles.nth(i);
    await link.scrollIntoViewIfNeeded();
    await page.waitForTimeout(350);
    seen.push((await link.getAttribute('href'))!);
  }
  // Eight cards came into view, with their owners and the tab bar: never more than five asked
  // for at once, however long the held ones take.
  await page.waitForTimeout(600);
  expect(prefetches.inFlight()).toBeLessThanOrEqual(5);
  expect(hold.held()).toBeGreaterThan(0);

  await hold.release();
  await expect.poll(() => prefetches.addresses, { timeout: 15_000 }).toEqual(expect.arrayContaining(seen));
  await expect.poll(() => prefetches.inFlight(), { timeout: 20_000 }).toBe(0);
  // More than five were candidates (the header, the tab bar and every card seen), at most five went at once.
  expect(prefetches.addresses.length).toBeGreaterThan(5);
  expect(new Set(prefetches.addresses).size).toBe(prefetches.addresses.length);
  expect(prefetches.maxInFlight()).toBeLessThanOrEqual(5);
  // Only pages of the phone site; the tab bar's sign-in and "create" tabs are never fetched ahead.
  for (const address of prefetches.addresses) expect(address).toMatch(/^\/m(\/|$)/);
  expect(prefetches.addresses.some((address) => /sso|login|logout|create/.test(address))).toBe(false);

  // A tap on a card prefetched in view only revalidates it.
  const last = titles.nth(7);
  const target = (await last.getAttribute('href'))!;
  const prefetched = prefetches.requests.find((request) => new URL(request.url()).pathname === target)!;
  const etag = (await prefetched.response())!.headers()['etag'];
  const [navigation] = await Promise.all([
    page.waitForResponse((response) => response.request().isNavigationRequest() && new URL(response.url()).pathname === target),
    last.tap(),
  ]);
  expect((await navigation.request().allHeaders())['if-none-match']).toBe(etag);
  expect(requested).not.toContain('/m/logout');
  expect(requested).not.toContain('/logout');
});
