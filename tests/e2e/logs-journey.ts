import { expect, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { call, ownProject, registerOverHttp, useSession } from './conversation-helpers.ts';

/**
 * Waits until the island in `container` has hydrated: islands that wait for the visitor
 * (`client:interaction`) start when a pointer or a finger comes to them.
 */
async function hydrated(page: Page, container: string, touch: boolean): Promise<void> {
  const island = page.locator(`${container} astro-island`).first();
  if (touch) await island.dispatchEvent('touchstart');
  else await island.hover();
  await page.locator(`${container} astro-island:not([ssr])`).first().waitFor();
}

/**
 * The build log journey, on a desktop or a phone: the owner writes a log with a picture on the
 * Logs tab (checking the preview), publishes it and lands on its page; it shows on the Logs tab;
 * another member comments on it there, and the owner’s message about that comment names the log;
 * the owner then corrects its title on its page and deletes it after confirming.
 */
export async function buildLogJourney(browser: Browser, baseURL: string, options: { phone: boolean }): Promise<void> {
  const { phone } = options;
  const prefix = phone ? '/m' : '';
  const { project, owner } = await ownProject(baseURL, phone ? 'Phone Logger' : 'Desk Logger');
  const reader = await registerOverHttp(baseURL, phone ? 'Phone Reader' : 'Desk Reader');
  const picture = await sharp({ create: { width: 480, height: 320, channels: 3, background: '#b0521d' } }).png().toBuffer();

  const ownerContext = await browser.newContext();
  await useSession(ownerContext, baseURL, owner);
  const page = await ownerContext.newPage();
  await page.goto(`${prefix}/d-${project.id}/logs`);
  await expect(page.getByRole('link', { name: /^Logs/ })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('logs-empty')).toBeVisible();
  await hydrated(page, '.project-logs', phone);
  await page.getByRole('textbox', { name: 'Title' }).fill('First power-up');
  const body = page.getByRole('textbox', { name: 'Log', exact: true });
  // The caret after a list: the picture goes in a paragraph of its own, not into the last item.
  await body.fill('The **3.3 V rail** came up clean.\n\n- checked the regulator\n- measured 3.31 V');
  await page.getByTestId('log-image-input').setInputFiles({ name: 'rail.png', mimeType: 'image/png', buffer: picture });
  await expect(body).toHaveValue(/!\[rail\]\(\/files\/[^)]+\)/);
  if (phone) await page.getByRole('tab', { name: 'Preview' }).click();
  const preview = page.getByTestId('log-preview');
  await expect(preview.locator('strong')).toHaveText('3.3 V rail');
  await expect(preview.getByRole('img', { name: 'rail' })).toBeVisible();
  await expect(preview.locator('li')).toHaveCount(2);
  await expect(preview.locator('li img')).toHaveCount(0);
  if (phone) await page.getByRole('tab', { name: 'Write' }).click();
  await page.getByRole('button', { name: 'Publish log' }).click();

  await expect(page).toHaveURL(new RegExp(`${prefix}/d-${project.id}/log/1$`));
  await expect(page.getByRole('heading', { level: 1, name: 'First power-up' })).toBeVisible();
  await expect(page.locator('.log-body .prose strong')).toHaveText('3.3 V rail');
  const shown = page.locator('.log-body .prose img');
  await expect(shown).toBeVisible();
  await expect(page.locator('.log-body .prose li img')).toHaveCount(0);
  expect(await shown.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  await page.getByRole('link', { name: /^Logs\s*1/ }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/d-${project.id}/logs$`));
  await expect(page.getByRole('link', { name: 'First power-up' })).toBeVisible();
  await expect(page.locator('.log-excerpt')).toContainText('The 3.3 V rail came up clean.');
  await ownerContext.close();

  const readerContext = await browser.newContext();
  await useSession(readerContext, baseURL, reader);
  const readerPage = await readerContext.newPage();
  await readerPage.goto(`${prefix}/d-${project.id}/logs`);
  await readerPage.getByRole('link', { name: 'First power-up' }).click();
  await expect(readerPage.getByRole('heading', { level: 1, name: 'First power-up' })).toBeVisible();
  // Only the owner may write logs: no form for anyone else.
  await expect(readerPage.getByRole('button', { name: 'Publish log' })).toHaveCount(0);
  await hydrated(readerPage, '#comments', phone);
  await readerPage.getByRole('textbox', { name: 'Write a comment' }).fill('How much ripple on that rail?');
  await readerPage.getByRole('button', { name: 'Post comment' }).click();
  await expect(readerPage.locator('#comments .comment', { hasText: 'How much ripple on that rail?' })).toBeVisible();
  await readerPage.reload();
  await expect(readerPage.locator('#comments .comment', { hasText: 'How much ripple on that rail?' })).toBeVisible();
  // The project's own conversation stays its own.
  await readerPage.goto(`${prefix}/d-${project.id}`);
  await expect(readerPage.locator('#comments')).not.toContainText('How much ripple on that rail?');
  await readerContext.close();

  const inbox = await call<{ list: { kind: string; comment: { log?: number; excerpt: string } | null }[] }>(owner.api, 'message/list', { page: 1, pageSize: 10 });
  expect(inbox.result.list.find((message) => message.kind === 'comment')?.comment).toMatchObject({ excerpt: 'How much ripple on that rail?', log: 1 });

  // The owner corrects the title on the log's page, then deletes the log after confirming.
  const editContext = await browser.newContext();
  await useSession(editContext, baseURL, owner);
  const editPage = await editContext.newPage();
  await editPage.goto(`${prefix}/d-${project.id}/log/1`);
  await editPage.getByText('Edit this log').click();
  await hydrated(editPage, '.log-editor-box', phone);
  await editPage.getByRole('textbox', { name: 'Title' }).fill('First power-up, 3.3 V rail');
  await editPage.getByRole('button', { name: 'Save changes' }).click();
  await expect(editPage.getByRole('heading', { level: 1, name: 'First power-up, 3.3 V rail' })).toBeVisible();
  await editPage.getByText('Edit this log').click();
  await hydrated(editPage, '.log-editor-box', phone);
  await editPage.getByRole('button', { name: 'Delete log' }).click();
  await editPage.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(editPage).toHaveURL(new RegExp(`${prefix}/d-${project.id}/logs$`));
  await expect(editPage.getByTestId('logs-empty')).toBeVisible();
  await editContext.close();
}
