import { expect, type BrowserContext, type Page } from '@playwright/test';
import { call, registerOverHttp, useSession } from './conversation-helpers.ts';

/**
 * The follows journey, on desktop or phone (`prefix` '' or '/m'): member B follows member A from
 * A's profile (the count changes), A publishes a project, and it reaches B's feed, B's home page
 * and B's messages once the server's feed job has delivered it; A hears that B followed them.
 */
export async function followJourney(page: Page, context: BrowserContext, baseURL: string, prefix: '' | '/m'): Promise<void> {
  const author = await registerOverHttp(baseURL, 'Ada Author');
  const follower = await registerOverHttp(baseURL, 'Bo Follower');
  await useSession(context, baseURL, follower);

  await page.goto(`${prefix}/user/${author.user.url}`);
  const banner = page.locator('.profile-banner');
  await expect(banner.getByTestId('follower-count')).toHaveText('0 followers');
  await banner.getByRole('button', { name: 'Follow Ada Author' }).click();
  await expect(banner.getByRole('button', { name: 'Follow Ada Author' })).toHaveAttribute('aria-pressed', 'true');
  await expect(banner.getByRole('button', { name: 'Follow Ada Author' })).toHaveText('Following');
  await expect(banner.getByTestId('follower-count')).toHaveText('1 follower');
  // Following again is refused: the button already said so.
  expect(await call(follower.api, 'follow/set', { kind: 'user', target: author.user.url, value: true })).toMatchObject({ status: 409, errorKey: 'already_following' });

  const title = `Followed board ${Date.now().toString(36)}`;
  const published = await call<{ id: string }>(author.api, 'release/saveProject', { title, summary: 'For my followers', licence: 'MIT', publish: true });
  expect(published.retCode, JSON.stringify(published)).toBe(0);

  // The feed job runs in the server's workers: the entry arrives within seconds.
  await expect(async () => {
    await page.goto(`${prefix}/feed`);
    await expect(page.getByRole('link', { name: new RegExp(title) })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator('.feed-item').filter({ hasText: title })).toContainText('Ada Author published a new project');
  await page.locator('.feed-item').filter({ hasText: title }).getByRole('link', { name: new RegExp(title) }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/d-${published.result.id}$`));

  await page.goto(prefix || '/');
  const following = page.getByRole('region', { name: 'From what you follow' });
  await expect(following.getByRole('link', { name: new RegExp(title) })).toBeVisible();

  await page.goto(`${prefix}/user/${follower.user.url}/message`);
  await expect(page.locator('.message').filter({ hasText: `Ada Author published a new project: ${title}` })).toBeVisible();

  const authorInbox = await call<{ list: { kind: string; actor: { url: string } | null }[] }>(author.api, 'message/list', { page: 1, pageSize: 20 });
  expect(authorInbox.result.list.filter((message) => message.kind === 'follow').map((message) => message.actor?.url)).toEqual([follower.user.url]);

  // A guest sees the new count on the profile, and a sign-in link instead of the button.
  const guest = await context.browser()!.newContext({ ...(prefix ? { userAgent: await page.evaluate(() => navigator.userAgent) } : {}) });
  const guestPage = await guest.newPage();
  await guestPage.goto(`${baseURL}${prefix}/user/${author.user.url}`);
  await expect(guestPage.locator('.profile-banner').getByTestId('follower-count')).toHaveText('1 follower');
  await expect(guestPage.locator('.profile-banner').getByRole('link', { name: /Follow Ada Author/ })).toBeVisible();
  await guest.close();

  // Unfollowing from the profile brings the count back.
  await page.goto(`${prefix}/user/${author.user.url}`);
  await banner.getByRole('button', { name: 'Follow Ada Author' }).click();
  await expect(banner.getByTestId('follower-count')).toHaveText('0 followers');
}

