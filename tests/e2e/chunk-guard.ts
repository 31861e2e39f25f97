import { expect, type Page } from '@playwright/test';

/**
 * What a reader sees when the page's code cannot be loaded (as after a new deployment removed the
 * chunk it names): the page reloads once; failing again within ten seconds, it says so with a
 * reload button and never reloads in a loop. For an island started on load and one started on
 * interaction (hovering the project page's star).
 */

/** Counts the page's own loads (the first one and every reload). */
export function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) loads += 1;
  });
  return () => loads;
}

/** Makes the code of the island whose component matches `component` fail to load while `failing()` says so. */
export async function breakIslandCode(page: Page, path: string, component: RegExp, failing: () => boolean): Promise<void> {
  // The island's code address, from the page as served.
  const html = await (await page.request.get(path)).text();
  const url = [...html.matchAll(/component-url="([^"]+)"/g)].map((match) => match[1]!).find((candidate) => component.test(candidate));
  expect(url, `an island matching ${component} on ${path}`).toBeTruthy();
  const pathname = new URL(url!, 'http://x').pathname;
  // Astro asks twice (the second time with `?astro-retry=`): both fail.
  await page.route((address) => address.pathname === pathname, (route) => (failing() ? route.abort('failed') : route.continue()));
}

export const WORDS = {
  'en-US': { failed: 'Part of this page could not be loaded', reload: 'Reload' },
  'zh-CN': { failed: '页面的一部分未能加载', reload: '重新加载' },
} as const;

/** The reload notice is there, worded for `locale`, and the page did not reload again within 12 s. */
export async function expectNoticeNoLoop(page: Page, loads: () => number, locale: keyof typeof WORDS): Promise<void> {
  const notice = page.getByRole('alert').filter({ hasText: WORDS[locale].failed });
  await expect(notice).toBeVisible({ timeout: 15_000 });
  const settled = loads();
  await page.waitForTimeout(12_000);
  expect(loads()).toBe(settled);
  // The reader's word reloads it.
  await notice.getByRole('button', { name: WORDS[locale].reload }).click();
  await expect.poll(loads).toBe(settled + 1);
}
