import { expect, type Page } from '@playwright/test';
import { openReadyBoard, sangaboardId } from './eda-helpers.ts';

/**
 * The demo Sangaboard as published: its pick-and-place file places R19, which its JLC BOM does
 * not list. Its electronics page says so to every reader, in their language. `prefix` is '' on
 * desktop, '/m' on a phone.
 */
export async function bomCheckJourney(page: Page, prefix: '' | '/m'): Promise<void> {
  const id = await sangaboardId(page.context().request);
  await openReadyBoard(page, `${prefix}/eda/${id}`, { live: false });
  const note = page.getByRole('note', { name: 'The BOM and the placements disagree' });
  await expect(note).toContainText('On the board but not in the BOM (1 part): R19.');
  await expect(note.locator('[data-bom-check="unplaced"]')).toHaveCount(0);
  await note.scrollIntoViewIfNeeded();
  await expect(note).toBeInViewport();
  await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: page.url() }]);
  await page.reload();
  await expect(page.getByRole('note', { name: '物料清单与贴片坐标不一致' })).toContainText('电路板上有、物料清单中没有（1 个）：R19。');
  if (process.env.E2E_SCREENSHOTS) {
    await page.getByRole('note', { name: '物料清单与贴片坐标不一致' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/bom-check${prefix ? '-phone' : ''}.png` });
  }
}
