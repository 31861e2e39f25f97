import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { call, makeStaff, ownProject, signInOverHttp, useSession } from './conversation-helpers.ts';

type Words = { report: Record<string, any>; admin: { reports: Record<string, any> }; logs: Record<string, string>; memberCollections: Record<string, string> };
const words = (locale: 'en-US' | 'zh-CN') => JSON.parse(readFileSync(path.resolve(`locales/${locale}.json`), 'utf8')) as Words;

/** Report → a reason → send, from the Report control inside `scope`, in the reader's language. */
async function report(page: Page, scope: string, t: Words) {
  await page.locator(scope).getByRole('button', { name: t.report.open, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t.report.title }).filter({ visible: true });
  await dialog.getByRole('radio', { name: t.report.reason.spam }).check();
  await dialog.getByRole('button', { name: t.report.send }).click();
  await expect(page.locator(scope).getByRole('status').filter({ hasText: t.report.sent })).toBeVisible();
}

/**
 * A member reports someone's build log and public collection from their pages; a moderator hides
 * both from the queue; guests lose them, their author sees why; restored, the log is back. In
 * `locale` throughout, on desktop (`prefix` '') or a phone ('/m').
 */
export async function moderatePostsJourney(browser: Browser, baseURL: string, prefix: '' | '/m', locale: 'en-US' | 'zh-CN', viewport?: { width: number; height: number }) {
  const t = words(locale);
  const { project, owner } = await ownProject(baseURL, 'Logging Author');
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const logTitle = `Reflow notes ${stamp}`;
  const log = await call<{ n: number }>(owner.api, 'log/save', { id: project.id, title: logTitle, content: 'Cheap stencils at spam.example' });
  expect(log.retCode, JSON.stringify(log)).toBe(0);
  const collectionTitle = `Picks ${stamp}`;
  const collection = await call<{ slug: string }>(owner.api, 'collection/save', { title: collectionTitle, public: true });
  expect(collection.retCode).toBe(0);
  const logPath = `${prefix}/d-${project.id}/log/${log.result.n}`;
  const collectionPath = `${prefix}/user/${owner.user.url}/collections/${collection.result.slug}`;

  const context = async (who?: Parameters<typeof useSession>[2]) => {
    const created = await browser.newContext({ ...(viewport ? { viewport, isMobile: true, hasTouch: true } : {}) });
    await created.addCookies([{ name: 'i18n_redirected', value: locale, url: baseURL }]);
    if (who) await useSession(created, baseURL, who);
    return created;
  };

  const reporter = await signInOverHttp(baseURL, { email: `post-reporter-${stamp}@example.com`, password: 'correct horse battery', nickname: 'Post Reporter' });
  const reporterContext = await context(reporter);
  const page = await reporterContext.newPage();
  await page.goto(logPath);
  await report(page, '.log-body', t);
  await page.goto(collectionPath);
  await report(page, '.member-collection-hero', t);

  const modEmail = `post-moderator-${stamp}@example.com`;
  const moderator = await signInOverHttp(baseURL, { email: modEmail, password: 'correct horse battery', nickname: 'Post Moderator' });
  makeStaff(modEmail, 'moderator');
  const modContext = await context(moderator);
  const queue = await modContext.newPage();
  await queue.goto(`${prefix}/admin/reports`);
  for (const [title, kind] of [[logTitle, 'log'], [collectionTitle, 'collection']] as const) {
    const card = queue.locator('article.report-card', { has: queue.getByRole('link', { name: title }) });
    await expect(card).toContainText(t.admin.reports.kind[kind]);
    await card.getByRole('button', { name: t.admin.reports.action.hide }).click();
    await expect(card).toHaveCount(0);
  }

  const guestContext = await context();
  const guest = await guestContext.newPage();
  expect((await guest.goto(logPath))!.status()).toBe(404);
  expect((await guest.goto(collectionPath))!.status()).toBe(404);
  await guest.goto(`${prefix}/d-${project.id}/logs`);
  await expect(guest.getByText(logTitle)).toHaveCount(0);

  const authorContext = await context(owner);
  const author = await authorContext.newPage();
  await author.goto(logPath);
  await expect(author.getByRole('status').filter({ hasText: t.logs.hiddenNotice })).toBeVisible();
  await author.goto(collectionPath);
  await expect(author.getByRole('status').filter({ hasText: t.memberCollections.hiddenNotice })).toBeVisible();
  if (process.env.E2E_SCREENSHOTS) await author.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/hidden-collection${prefix ? '-phone' : ''}-${locale}.png` });
  const overflow = await author.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await queue.goto(`${prefix}/admin/reports?status=closed`);
  await queue.locator('article.report-card', { has: queue.getByRole('link', { name: logTitle }) }).getByRole('button', { name: t.admin.reports.action.restore }).click();
  await expect(queue.getByRole('status').filter({ hasText: t.admin.reports.done.restore.replace('{{title}}', logTitle) })).toBeVisible();
  expect((await guest.goto(logPath))!.status()).toBe(200);
  await expect(guest.getByRole('heading', { level: 1, name: logTitle })).toBeVisible();

  for (const opened of [reporterContext, modContext, guestContext, authorContext]) await opened.close();
}
