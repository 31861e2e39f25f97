import { expect, test } from '@playwright/test';
import { call, makeStaff, ownProject, signInOverHttp, useSession } from './conversation-helpers.ts';

const baseURL = () => test.info().project.use.baseURL!;

test('a member reports a project and a comment; a moderator hides the project; guests lose it, its author keeps it; restored, it is back', async ({ browser }) => {
  const { project, owner } = await ownProject(baseURL(), 'Reported Author');
  await call(owner.api, 'comment/submit', { id: project.id, content: 'Cheap parts at spam.example' });
  const stamp = Date.now().toString(36);
  const reporter = await signInOverHttp(baseURL(), { email: `reporter-${stamp}@example.com`, password: 'correct horse battery', nickname: 'Careful Reporter' });
  const modEmail = `moderator-${stamp}@example.com`;
  const moderator = await signInOverHttp(baseURL(), { email: modEmail, password: 'correct horse battery', nickname: 'Mod Morgan' });
  makeStaff(modEmail, 'moderator');

  // The reporter, on the project page: Report → a reason and a note → thanks.
  const reporterContext = await browser.newContext();
  await useSession(reporterContext, baseURL(), reporter);
  const page = await reporterContext.newPage();
  await page.goto(`/d-${project.id}`);
  await page.locator('.side-card').getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this to the moderators' });
  await dialog.getByRole('radio', { name: 'Licence violation (copied without permission)' }).check();
  await dialog.getByLabel('Anything the moderators should know (optional)').fill('Copied from my repository');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.locator('.side-card').getByRole('status').filter({ hasText: 'Reported' })).toHaveText('Reported: thank you, our moderators will review it.');
  // And the comment, from its own Report control.
  const comment = page.locator('#comments article', { hasText: 'Cheap parts at spam.example' });
  await comment.getByRole('button', { name: 'Report' }).click();
  const commentDialog = page.getByRole('dialog', { name: 'Report this to the moderators' }).filter({ visible: true });
  await commentDialog.getByRole('radio', { name: 'Spam or advertising' }).check();
  await commentDialog.getByRole('button', { name: 'Send report' }).click();
  await expect(comment.getByRole('status').filter({ hasText: 'Reported' })).toHaveText('Reported: thank you, our moderators will review it.');

  // The moderator's queue shows both with their content; they hide the project with a note.
  const modContext = await browser.newContext();
  await useSession(modContext, baseURL(), moderator);
  const queue = await modContext.newPage();
  await queue.goto('/admin/reports');
  const card = queue.locator('article.report-card', { hasText: 'Copied from my repository' });
  await expect(card.getByRole('link', { name: project.title })).toBeVisible();
  await expect(card).toContainText('Licence violation');
  await expect(card).toContainText('Careful Reporter');
  await expect(queue.locator('article.report-card', { hasText: 'Cheap parts at spam.example' })).toBeVisible();
  await card.getByLabel('Note for the audit log').fill('Licence complaint checked');
  await card.getByRole('button', { name: 'Hide content' }).click();
  await expect(queue.getByRole('status').filter({ hasText: `Hid “${project.title}”` })).toBeVisible();
  await expect(card).toHaveCount(0);

  // A guest no longer finds it; its author still does.
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  expect((await guest.goto(`/d-${project.id}`))!.status()).toBe(404);
  await guest.goto('/newest');
  await expect(guest.getByText(project.title)).toHaveCount(0);
  const authorContext = await browser.newContext();
  await useSession(authorContext, baseURL(), owner);
  const authorPage = await authorContext.newPage();
  expect((await authorPage.goto(`/d-${project.id}`))!.status()).toBe(200);
  await expect(authorPage.getByRole('heading', { level: 1, name: project.title })).toBeVisible();

  // The reporter is told.
  await page.goto(`/user/${reporter.user.url}/message`);
  await expect(page.getByText('Our moderators reviewed it and hid the content.')).toBeVisible();

  // Restored from the handled reports, it is back for everyone.
  await queue.goto('/admin/reports?status=closed');
  const closed = queue.locator('article.report-card', { hasText: 'Licence complaint checked' });
  await closed.getByRole('button', { name: 'Restore' }).click();
  await expect(queue.getByRole('status').filter({ hasText: `“${project.title}” is visible again.` })).toBeVisible();
  expect((await guest.goto(`/d-${project.id}`))!.status()).toBe(200);
  await expect(guest.getByRole('heading', { level: 1, name: project.title })).toBeVisible();

  for (const context of [reporterContext, modContext, guestContext, authorContext]) await context.close();
});

test('the moderation queue works on a phone: /m/admin/reports at 360 px', async ({ browser }) => {
  const stamp = Date.now().toString(36);
  const email = `mobile-mod-${stamp}@example.com`;
  const moderator = await signInOverHttp(baseURL(), { email, password: 'correct horse battery', nickname: 'Mobile Mod' });
  makeStaff(email, 'moderator');
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await useSession(context, baseURL(), moderator);
  const page = await context.newPage();
  await page.goto('/m/admin/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});

test('a note typed into the queue before its code has arrived is the note the audit log keeps', async ({ browser }) => {
  const { project } = await ownProject(baseURL(), 'Early Noted Author');
  const stamp = Date.now().toString(36);
  const reporter = await signInOverHttp(baseURL(), { email: `early-reporter-${stamp}@example.com`, password: 'correct horse battery', nickname: 'Early Reporter' });
  expect((await call(reporter.api, 'report/submit', { kind: 'project', id: project.id, reason: 'spam', note: `Early note case ${stamp}` })).retCode).toBe(0);
  const modEmail = `early-moderator-${stamp}@example.com`;
  const moderator = await signInOverHttp(baseURL(), { email: modEmail, password: 'correct horse battery', nickname: 'Early Moderator' });
  makeStaff(modEmail, 'moderator');
  const context = await browser.newContext();
  await useSession(context, baseURL(), moderator);
  const page = await context.newPage();
  // A slow line: the queue's code arrives well after the page.
  await page.route('**/_astro/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/admin/reports');
  const card = page.locator('article.report-card', { hasText: `Early note case ${stamp}` });
  await card.getByLabel('Note for the audit log').fill('Checked before the code came');
  await expect(page.locator('astro-island:has(article.report-card)')).not.toHaveAttribute('ssr', { timeout: 15_000 });
  await card.getByRole('button', { name: 'Hide content' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Hid “${project.title}”` })).toBeVisible();
  await page.goto('/admin/reports?status=closed');
  await expect(page.locator('article.report-card', { hasText: `Early note case ${stamp}` })).toContainText('Checked before the code came');
  await context.close();
});
