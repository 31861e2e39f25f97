import { expect, test } from '@playwright/test';
import { registerOverHttp, useSession } from './conversation-helpers.ts';
import { holdPrefetches, recordPrefetches } from './prefetch-helpers.ts';

const baseURL = () => test.info().project.use.baseURL!;

/**
 * Route preloads (issue 26, point 5): a guest's pointer resting on a link fetches its page ahead,
 * never more than five at once, never a link that signs out or changes anything.
 */

test('hovering many project cards prefetches them all, never more than five at once, and the click is then cheap', async ({ page }) => {
  const prefetches = recordPrefetches(page);
  await page.goto('/');
  // The server is made to wait: every prefetch is held until the visitor has hovered ten cards.
  const hold = await holdPrefetches(page);
  const titles = page.locator('article.project-card h3 a');
  await expect(titles.nth(9)).toBeAttached();
  const hovered: string[] = [];
  for (let i = 0; i < 10; i++) {
    const link = titles.nth(i);
    await link.hover();
    await page.waitForTimeout(100);
    const href = (await link.getAttribute('href'))!;
    if (!hovered.includes(href)) hovered.push(href);
  }
  expect(hovered.length).toBeGreaterThan(5);
  await page.waitForTimeout(300);
  // More than five wanted, five asked for: the rest wait in the page's queue.
  expect(hold.held()).toBe(5);
  expect(prefetches.addresses).toHaveLength(5);
  expect(prefetches.inFlight()).toBe(5);

  await hold.release();
  await expect.poll(() => prefetches.addresses, { timeout: 15_000 }).toEqual(expect.arrayContaining(hovered));
  await expect.poll(() => prefetches.inFlight(), { timeout: 15_000 }).toBe(0);
  // Every hovered card, each once (the pointer may also have rested on a card it passed over),
  // and never more than five at once.
  expect(new Set(prefetches.addresses).size).toBe(prefetches.addresses.length);
  expect(prefetches.maxInFlight()).toBe(5);

  // The page the click opens was fetched before the click, as a guest's page the browser may keep:
  // following the link only asks whether it changed (its ETag), and the server, whose page cache
  // the prefetch filled, answers from memory (a 304: the body comes from the browser's cache).
  const last = titles.nth(9);
  const target = (await last.getAttribute('href'))!;
  const prefetched = prefetches.requests.find((request) => new URL(request.url()).pathname === target)!;
  const prefetchResponse = (await prefetched.response())!;
  expect(prefetchResponse.status()).toBe(200);
  expect(prefetchResponse.headers()['cache-control']).toMatch(/^public,/);
  const [navigation] = await Promise.all([
    page.waitForResponse((response) => response.request().isNavigationRequest() && new URL(response.url()).pathname === target),
    last.click(),
  ]);
  expect((await navigation.request().allHeaders())['if-none-match']).toBe(prefetchResponse.headers()['etag']);
  // From memory: fresh, or stale while a render replaces it (when an earlier run filled it).
  expect(navigation.headers()['x-page-cache']).toMatch(/^(hit|stale)$/);
  await expect(page).toHaveURL(new RegExp(`${target}$`));
});

test('a link that signs out, downloads or leaves the site is never prefetched, even marked for it', async ({ page }) => {
  const prefetches = recordPrefetches(page);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/');
  // Links a page might carry, marked as our pages' links are: the script itself must refuse them.
  await page.evaluate(() => {
    const box = document.createElement('nav');
    box.id = 'never';
    box.innerHTML = [
      '<a href="/logout" data-prefetch>Sign out</a>',
      '<a href="/m/logout" data-prefetch>Sign out (phone)</a>',
      '<a href="/sso/login" data-prefetch>Sign in</a>',
      '<a href="/api/project/list" data-prefetch>API</a>',
      '<a href="/files/attachments/x.zip" data-prefetch>Attachment</a>',
      '<a href="/newest" download data-prefetch>Download</a>',
      '<a href="/recommend" target="_blank" data-prefetch>New window</a>',
      '<a href="/donation-list" rel="nofollow" data-prefetch>Nofollow</a>',
      '<a href="https://example.com/" data-prefetch>Elsewhere</a>',
    ].join(' ');
    document.querySelector('main')!.prepend(box);
  });
  for (const link of await page.locator('#never a').all()) {
    await link.hover();
    await link.focus();
    await page.waitForTimeout(150);
  }
  // The footer's links (the feed, the phone site) and the header's sign-in are not marked either.
  for (const link of await page.locator('footer a, header a.btn').all()) {
    await link.hover();
    await page.waitForTimeout(150);
  }
  // A marked page link still is: the script was running all along.
  await page.getByRole('link', { name: 'Newest', exact: true }).first().hover();
  await expect.poll(() => prefetches.addresses).toContain('/newest');
  expect(prefetches.addresses).toEqual(['/newest']);
  expect(requested).not.toContain('/logout');
  expect(requested).not.toContain('/m/logout');
});

test("a member's pages load no prefetching: theirs are private, no-store, and a prefetch would only render them twice", async ({ page, context }) => {
  const member = await registerOverHttp(baseURL(), 'Prefetch reader');
  await useSession(context, baseURL(), member);
  const prefetches = recordPrefetches(page);
  const response = await page.goto('/');
  expect(response?.headers()['cache-control']).toContain('no-store');
  const titles = page.locator('article.project-card h3 a');
  for (let i = 0; i < 6; i++) {
    await titles.nth(i).hover();
    await page.waitForTimeout(120);
  }
  await page.waitForTimeout(300);
  expect(prefetches.addresses).toEqual([]);
});
