import { expect, type Page } from '@playwright/test';
import { signUp } from './project-helpers.ts';

/** The words of the form in each language, as the locale files have them. */
const WORDS = {
  'en-US': { notAccepted: 'This is not a design file we accept', video: 'This is a video.', videosLink: 'Upload it on your Videos tab', retry: 'Try again', remove: 'Remove' },
  'zh-CN': { notAccepted: '不支持这种文件', video: '这是一个视频。', videosLink: '去“视频”标签页上传', retry: '重试', remove: '移除' },
} as const;

/**
 * Files the design-file list refuses for good: a video points to the member's Videos tab, and a
 * file of a type the site does not take offers no "Try again" (sending it again changes nothing).
 * `prefix` is '' on desktop, '/m' on a phone.
 */
export async function refusedAttachmentsJourney(page: Page, prefix: '' | '/m', locale: 'en-US' | 'zh-CN'): Promise<void> {
  const member = await signUp(page.context().request, locale === 'zh-CN' ? 'Refused Files Zh' : 'Refused Files');
  await page.goto(`${prefix}/create/project`);
  await page.context().addCookies([{ name: 'i18n_redirected', value: locale, url: page.url() }]);
  await page.reload();
  // The file list is the form's: chosen once its code runs (the button that opens the picker does nothing before).
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const words = WORDS[locale];
  const input = page.getByTestId('attachment-input');
  await input.setInputFiles({ name: 'soldering.mp4', mimeType: 'video/mp4', buffer: Buffer.from('0000001866747970', 'hex') });
  const videoRow = page.locator('.upload-row', { hasText: 'soldering.mp4' });
  await expect(videoRow.getByRole('alert')).toContainText(words.video);
  const link = videoRow.getByRole('link', { name: words.videosLink });
  await expect(link).toHaveAttribute('href', `${prefix}/user/${member.url}/video`);
  await expect(videoRow.getByRole('button', { name: words.retry })).toHaveCount(0);

  // A picture under a zip's name: refused by its bytes, for good.
  await input.setInputFiles({ name: 'gerbers.zip', mimeType: 'application/zip', buffer: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') });
  const refusedRow = page.locator('.upload-row', { hasText: 'gerbers.zip' });
  await expect(refusedRow.getByRole('alert')).toBeVisible();
  await expect(refusedRow.getByRole('alert')).toContainText(words.notAccepted);
  await expect(refusedRow.getByRole('button', { name: words.retry })).toHaveCount(0);
  await expect(refusedRow.getByRole('button', { name: new RegExp(words.remove) })).toBeVisible();

  // The link goes where it says.
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/user/${member.url}/video$`));
}
