import { expect, test } from '@playwright/test';
import { signUp } from './project-helpers.ts';

/**
 * The header's search box beside a member with a long name, at every width from a phone held
 * upright to a wide screen, in both languages: wide enough to type a query into, and nothing of the
 * header pushed out of the window.
 */
for (const locale of ['en-US', 'zh-CN'] as const) {
  test(`the header search box keeps a usable width beside a long member name, 360 to 1920 px (${locale})`, async ({ page }) => {
    await signUp(page.context().request, 'Maximiliana Konstantinopoulou-Wattenberg');
    await page.goto('/');
    await page.context().addCookies([{ name: 'i18n_redirected', value: locale, url: page.url() }]);
    for (const width of [360, 480, 600, 768, 900, 1024, 1280, 1366, 1600, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/?desktop=1');
      const search = page.locator('.site-header .header-search input');
      const box = (await search.boundingBox())!;
      expect(box.width, `search box at ${width} px`).toBeGreaterThanOrEqual(Math.min(180, width - 60));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `page wider than the window at ${width} px`).toBeLessThanOrEqual(0);
      const header = (await page.locator('.site-header').boundingBox())!;
      if (process.env.E2E_SCREENSHOTS) await page.locator('.site-header').screenshot({ path: `${process.env.E2E_SCREENSHOTS}/header-${locale}-${width}.png` });
      for (const part of ['.brand', '.header-search', '.header-actions']) {
        const partBox = (await page.locator(`.site-header ${part}`).first().boundingBox())!;
        expect(partBox.x + partBox.width, `${part} inside the header at ${width} px`).toBeLessThanOrEqual(header.width + 0.5);
      }
    }
  });
}
