import { expect, test } from '@playwright/test';
import { call, hydrated, ownProject, registerOverHttp, useSession } from './conversation-helpers.ts';

// Guests are served pages from the page cache; what members write must show on their next view.
test('a guest sees a comment, a star and a new title as soon as a member made them', async ({ page, baseURL, browser }) => {
  const { project, owner } = await ownProject(baseURL!, 'Cache Owner');
  const reader = await registerOverHttp(baseURL!, 'Cache Reader');

  // The guest's page is kept (second view from memory), compressed for the browser.
  await page.goto(`/d-${project.id}`);
  const again = await page.goto(`/d-${project.id}`);
  expect(again?.headers()['x-page-cache']).toBe('hit');
  expect(again?.headers()['content-encoding']).toBe('br');
  await expect(page.getByRole('heading', { level: 1, name: project.title })).toBeVisible();

  // A member comments in their browser; the guest's next view has it.
  const member = await browser.newContext();
  await useSession(member, baseURL!, reader);
  const memberPage = await member.newPage();
  await memberPage.goto(`/d-${project.id}#comments`);
  await hydrated(memberPage, '#comments');
  await memberPage.getByRole('textbox', { name: 'Write a comment' }).fill('Fresh from the bench');
  // The guest looks once the comment is saved (the composer shows the text while it is being sent).
  const saved = memberPage.waitForResponse((response) => response.url().endsWith('/api/comment/submit'));
  await memberPage.getByRole('button', { name: 'Post comment' }).click();
  expect((await saved).status()).toBe(200);
  await expect(memberPage.getByText('Fresh from the bench')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Fresh from the bench')).toBeVisible();

  // A star shows in the guest's count; the owner's new title in the heading and on /newest.
  const stars = page.locator('[data-reaction="star"] .count');
  const before = Number(await stars.innerText());
  expect((await call(reader.api, 'project/star', { id: project.id, value: true })).retCode).toBe(0);
  await page.reload();
  await expect(stars).toHaveText(String(before + 1));
  const renamed = `${project.title} v2`;
  const edit = await call(owner.api, 'release/editProject', { id: project.id, title: renamed, licence: 'MIT', publish: true });
  expect(edit.retCode, JSON.stringify(edit)).toBe(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await page.goto('/newest');
  await expect(page.getByRole('heading', { name: renamed })).toBeVisible();
  await member.close();
});
