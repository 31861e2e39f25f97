import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { call, registerOverHttp, useSession } from './conversation-helpers.ts';
import { firstProjects } from './helpers.ts';

const LOCALES = ['en-US', 'zh-CN'] as const;

async function useLocale(context: BrowserContext, baseURL: string, locale: string) {
  await context.addCookies([{ name: 'i18n_redirected', value: locale, url: baseURL }]);
}

/** What sticks out to the right of the window, if anything: a phone would scroll sideways. */
async function overflowOf(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width) return null;
    const wide = [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > width + 1);
    return { scrollWidth: document.documentElement.scrollWidth, width, first: wide.slice(0, 3).map((element) => element.outerHTML.slice(0, 80)) };
  });
}

test('every desktop page fits a 360 px wide window without scrolling sideways, in both languages', async ({ browser, request, baseURL }) => {
  test.setTimeout(240_000);
  const [project] = await firstProjects(request, 1);
  const author = project!.owner.url;
  const member = await registerOverHttp(baseURL!, 'Narrow Window');
  const collection = /href="\/collection\/([^"]+)"/.exec(await (await request.get('/')).text())?.[1];
  expect(collection).toBeTruthy();
  const guestPages = ['/', '/newest', '/recommend', '/search', '/search?q=board', `/search?q=${'x'.repeat(120)}`, `/d-${project!.id}`, `/d-${project!.id}/makes`, `/eda/${project!.id}`, '/donation-list', '/support', `/support?project=${project!.id}`, '/support/thanks', `/collection/${collection}`,
    `/user/${author}`, `/user/${author}/stars`, `/user/${author}/makes`, `/user/${author}/video`, `/user/${author}/profile`, '/no/such/page'];
  const memberPages = ['/create/project', `/d-${project!.id}/makes`, `/user/${member.user.url}/profile`, `/user/${member.user.url}/draftbox`, `/user/${member.user.url}/message`];
  for (const locale of LOCALES) {
    for (const [pages, signedIn] of [[guestPages, false], [memberPages, true]] as const) {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
      await useLocale(context, baseURL!, locale);
      if (signedIn) await useSession(context, baseURL!, member);
      const page = await context.newPage();
      for (const path of pages) {
        await page.goto(path);
        expect({ locale, path, overflow: await overflowOf(page) }).toEqual({ locale, path, overflow: null });
      }
      await context.close();
    }
  }
});

test('the header keeps its links, search and sign-in reachable on a narrow window', async ({ page }) => {
  for (const width of [768, 360]) {
    await page.setViewportSize({ width, height: 740 });
    await page.goto('/newest');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const name of ['Home', 'Newest', 'Recommended', 'Donations']) await expect(nav.getByRole('link', { name, exact: true })).toBeInViewport();
    await expect(page.getByRole('searchbox', { name: 'Search projects' })).toBeInViewport();
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeInViewport();
  }
});

test('on a phone the donation list turns its rows into cards that keep every column', async ({ page, request }) => {
  const listed = await (await request.get('/api/donate/list?pageSize=30')).json();
  const donations = listed.result.list as { message: string }[];
  expect(donations.some((donation) => donation.message.trim() === ''), 'the demo has a donation without a message').toBe(true);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/m/donation-list');
  const rows = page.locator('main tbody tr');
  await expect(rows).toHaveCount(donations.length);
  for (const [index, donation] of donations.entries()) {
    const row = rows.nth(index);
    // Amount, project and date stay on screen, each labelled since the column headings are gone.
    for (const label of ['Amount', 'Project', 'Date']) await expect(row.locator(`td[data-label="${label}"]`)).toBeVisible();
    const box = await row.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    // A donation without a message shows no empty message line.
    await expect(row.locator('.donation-message')).toHaveCount(donation.message.trim() ? 1 : 0);
  }
});

test('counts read naturally: "1 star", not "1 stars"', async ({ page, baseURL, request }) => {
  const member = await registerOverHttp(baseURL!, 'Plural Check');
  const [project] = await firstProjects(request, 1);
  expect((await call(member.api, 'project/star', { id: project!.id, value: true })).retCode).toBe(0);
  await page.goto(`/user/${member.user.url}`);
  await expect(page.getByTestId('profile-counts')).toHaveText('0 projects · 1 star · 0 videos');
  await useLocale(page.context(), baseURL!, 'zh-CN');
  await page.reload();
  await expect(page.getByTestId('profile-counts')).toHaveText('0 个项目 · 1 个收藏 · 0 个视频');
});

test('the footer separates its links, and a preview says it is a draft instead of showing a publication date', async ({ page, baseURL }) => {
  await page.goto('/newest');
  await expect(page.getByRole('contentinfo').getByRole('navigation')).toHaveText(/RSS feed\s·\s*Mobile version\s·\s*© \d{4}/);

  const author = await registerOverHttp(baseURL!, 'Draft Author');
  const saved = await call<{ url: string }>(author.api, 'release/savePreview', { title: 'A board still on the bench' });
  expect(saved.retCode).toBe(0);
  for (const [locale, draft, published] of [['en-US', /Draft — last saved/, 'Published'], ['zh-CN', /草稿 — 最后保存于/, '发布于']] as const) {
    await useLocale(page.context(), baseURL!, locale);
    await page.goto(saved.result.url);
    const facts = page.locator('.side-card .facts');
    await expect(facts.getByTestId('draft-status')).toHaveText(draft);
    await expect(facts).not.toContainText(published);
  }
});
