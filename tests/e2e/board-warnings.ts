import { expect, type Page } from '@playwright/test';
import { zipBoard } from '../helpers/board-fixtures.ts';
import { openReadyBoard } from './eda-helpers.ts';
import { api, signUp } from './project-helpers.ts';

/**
 * A Gerber set published without its drill files: the board renders, and its electronics page
 * tells every reader, guests included and in their language, that a fab will refuse the set; with
 * no photos of its own, the project page shows the board as its main picture, card-wide on a phone.
 * `prefix` is '' on desktop, '/m' on a phone.
 */
export async function boardWarningsJourney(page: Page, prefix: '' | '/m'): Promise<void> {
  const request = page.context().request;
  await signUp(request, 'Drill Forgetter');
  const zip = Buffer.from(await zipBoard('kicad-rrf', 'gerbers', (name) => !name.endsWith('.drl')));
  const upload = await request.post('/api/upload', { multipart: { purpose: 'attachment', file: { name: 'adapter-no-drills.zip', mimeType: 'application/zip', buffer: zip } } });
  const attachment = (await upload.json()).result.id as string;
  const saved = await api(request, 'release/saveProject', { title: 'Adapter without drills', summary: 'The drill files were left out.', description: 'Gerbers only.', tags: [], licence: 'MIT', attachments: [attachment], publish: true });
  expect(saved.retCode).toBe(0);
  // A guest reads it.
  await page.context().clearCookies();
  await openReadyBoard(page, `${prefix}/eda/${saved.result.id}`, { live: false });
  const note = page.getByRole('note', { name: 'Before ordering' });
  await expect(note).toContainText('No drill file: fabs will reject this set.');
  await note.scrollIntoViewIfNeeded();
  await expect(note).toBeInViewport();
  // In Chinese too.
  await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: page.url() }]);
  await page.reload();
  await expect(page.getByRole('note', { name: '下单前请注意' })).toContainText('缺少钻孔文件：工厂会拒收这套文件。');
  // A project without photos of its own: its board is the project page's main picture, as wide as its card.
  await page.goto(`${prefix}/d-${saved.result.id}`);
  const card = (await page.locator('.project-board').boundingBox())!;
  const picture = (await page.locator('.project-board-picture img').boundingBox())!;
  expect(picture.width).toBeGreaterThan(card.width * 0.8);
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/board-warnings${prefix ? '-phone' : ''}.png` });
}
