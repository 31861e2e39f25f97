import { expect, test } from '@playwright/test';
import { bitaxeId, openReadyDesign } from './eda-helpers.ts';

// Runs in the `mobile` project (a Pixel 7: phone viewport, touch, phone user agent).

test('on a phone a reference is found in the schematic and shown on the board, and a part tapped on the board back in the schematic', async ({ page, request }, testInfo) => {
  const id = await bitaxeId(request);
  await openReadyDesign(page, `/m/eda/${id}`);
  await page.getByRole('tab', { name: /^Schematic/ }).tap();
  const search = page.getByRole('searchbox', { name: 'Find in the schematic' });
  await search.fill('U8');
  await page.getByRole('button', { name: 'Next match' }).tap();
  await expect(page).toHaveURL(new RegExp(`/m/eda/${id}\\?sheet=2&ref=U8$`));
  const part = page.getByRole('complementary', { name: 'U8' });
  await expect(part).toContainText('INA260');

  // Two fingers zoom the sheet.
  const viewport = page.getByRole('group', { name: /^Sheet 2, Power/ });
  await page.getByRole('button', { name: 'Fit sheet' }).tap();
  const box = (await viewport.boundingBox())!;
  await viewport.evaluate((element, { x, y }) => {
    const send = (type: string, pointerId: number, at: number) =>
      element.dispatchEvent(new PointerEvent(type, { pointerId, pointerType: 'touch', clientX: at, clientY: y, bubbles: true, isPrimary: pointerId === 1, buttons: type === 'pointerup' ? 0 : 1 }));
    send('pointerdown', 1, x - 20);
    send('pointerdown', 2, x + 20);
    for (let step = 1; step <= 5; step += 1) {
      send('pointermove', 1, x - 20 - step * 10);
      send('pointermove', 2, x + 20 + step * 10);
    }
    send('pointerup', 1, x - 70);
    send('pointerup', 2, x + 70);
  }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
  await expect.poll(async () => Number(await viewport.getAttribute('data-scale'))).toBeGreaterThan(2);

  await part.getByRole('button', { name: 'Show on the board' }).tap();
  await expect(page.locator('.board-viewport .part.is-picked')).toHaveAttribute('data-designator', 'U8');
  await page.locator('.board-viewport .part[data-designator="U10"]').dispatchEvent('click');
  await page.getByRole('button', { name: 'Show in schematic' }).tap();
  await expect(page).toHaveURL(new RegExp(`\\?sheet=2&ref=U10$`));
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('schematic-phone-en.png'), fullPage: true });
});

test('the schematic on a phone in Chinese at 360 px', async ({ browser, request, baseURL }, testInfo) => {
  const id = await bitaxeId(request);
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true, baseURL });
  await context.addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
  const page = await context.newPage();
  await openReadyDesign(page, `/m/eda/${id}?sheet=2&ref=U8`);
  await expect(page.getByRole('tab', { name: /^原理图/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('complementary', { name: 'U8' }).getByRole('button', { name: '在电路板上显示' })).toBeVisible();
  const search = page.getByRole('searchbox', { name: '在原理图中查找' });
  await search.fill('U10');
  await page.getByRole('button', { name: '下一个匹配' }).tap();
  await expect(page.getByRole('complementary', { name: 'U10' })).toBeVisible();
  await page.getByRole('complementary', { name: 'U10' }).getByRole('button', { name: '在电路板上显示' }).tap();
  await expect(page.locator('.board-viewport .part.is-picked')).toHaveAttribute('data-designator', 'U10');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('schematic-phone-zh-360.png'), fullPage: true });
  await context.close();
});
