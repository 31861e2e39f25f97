import { expect, test } from '@playwright/test';
import { openReadyBoard, sangaboardId } from './eda-helpers.ts';

// Runs in the `mobile` project (a Pixel 7: phone viewport, touch, phone user agent).

test('on a phone the board zooms with two fingers, a line shows its parts and the BOM stays usable', async ({ page, request }, testInfo) => {
  const id = await sangaboardId(request);
  await openReadyBoard(page, `/m/eda/${id}`);
  await expect(page.locator('[data-fact="size"]')).toHaveText('65.0 × 56.5 mm (2.56 × 2.22 in)');

  await page.getByRole('group', { name: 'Side' }).getByRole('button', { name: 'Bottom' }).tap();
  await expect(page.getByRole('img', { name: /^Bottom side of the board/ })).toBeVisible();
  await page.getByRole('group', { name: 'Side' }).getByRole('button', { name: 'Top' }).tap();

  await page.getByRole('button', { name: 'Layers' }).tap();
  const copper = page.locator('.board-layer[data-layer$="F_Cu.gtl"]');
  await expect(copper).toBeVisible();
  await page.getByRole('checkbox', { name: 'Copper, top' }).tap();
  await expect(copper).toBeHidden();
  await page.getByRole('checkbox', { name: 'Copper, top' }).tap();
  await expect(copper).toBeVisible();

  // Two fingers spreading apart zoom in (pointer events, as a phone sends them).
  const viewport = page.getByRole('group', { name: /^Board view of/ });
  const box = (await viewport.boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await viewport.evaluate((element, { cx, cy }) => {
    const send = (type: string, pointerId: number, x: number) =>
      element.dispatchEvent(new PointerEvent(type, { pointerId, pointerType: 'touch', clientX: x, clientY: cy, bubbles: true, isPrimary: pointerId === 1, buttons: type === 'pointerup' ? 0 : 1 }));
    send('pointerdown', 1, cx - 20);
    send('pointerdown', 2, cx + 20);
    for (let step = 1; step <= 5; step += 1) {
      send('pointermove', 1, cx - 20 - step * 10);
      send('pointermove', 2, cx + 20 + step * 10);
    }
    send('pointerup', 1, cx - 70);
    send('pointerup', 2, cx + 70);
  }, { cx, cy });
  await expect.poll(async () => Number(await viewport.getAttribute('data-scale'))).toBeGreaterThan(2);
  await page.getByRole('button', { name: 'Reset view' }).tap();
  await expect(viewport).toHaveAttribute('data-scale', '1.00');

  // Tapping a line's designators marks its parts; the designators stay in view on a narrow screen.
  const row = page.getByRole('row', { name: /ATMEGA32U4-AU/ });
  await row.getByRole('button', { name: 'U1', exact: true }).tap();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.board-viewport .part.is-lit')).toHaveAttribute('data-designator', 'U1');
  await page.getByRole('spinbutton', { name: 'Number of boards' }).fill('3');
  await expect(row.locator('td.col-quantity')).toHaveText('3');
  await expect(page.getByRole('link', { name: 'JLCPCB', exact: true })).toHaveAttribute('href', `/eda/${id}/bom.csv?format=jlc&boards=3`);
  // The page itself never scrolls sideways: only the table does.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('eda-phone-en.png'), fullPage: true });
});

test('a phone in Chinese at 360 px', async ({ browser, request, baseURL }, testInfo) => {
  const id = await sangaboardId(request);
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true, baseURL });
  await context.addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
  const page = await context.newPage();
  await openReadyBoard(page, `/m/eda/${id}`);
  await expect(page.getByRole('heading', { name: '物料清单' })).toBeVisible();
  // Ordering, in Chinese on a narrow phone: the fab links open in a new tab with the board's own Gerber zip.
  const order = page.getByRole('region', { name: '下单制作' });
  const aisler = order.getByRole('link', { name: /^在 Aisler 下单/ });
  await expect(aisler).toHaveAttribute('target', '_blank');
  await expect(aisler).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(aisler).toHaveAttribute('href', new RegExp(`^https://aisler\\.net/p/new\\?url=http.*${encodeURIComponent(`/eda/${id}/board-`)}\\d+-gerbers\\.zip$`));
  await expect(order.getByRole('link', { name: /^在 PCBWay 下单/ })).toBeVisible();
  await expect(order.getByRole('link', { name: '嘉立创格式坐标文件（CPL）' })).toHaveAttribute('href', `/eda/${id}/cpl.csv?format=jlc`);
  await expect(page.getByRole('button', { name: /^全部加入 Digi-Key 购物车/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('eda-phone-zh-360.png'), fullPage: true });
  await context.close();
});
