import { expect, type Locator, type Page } from '@playwright/test';
import { bitaxeId, openReadyBoard, openReadyDesign, sangaboardId } from './eda-helpers.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A row of the BOM far down its list, and what the board beside the list shows for it. */
export interface FarRow {
  /** Its designators as the table writes them (`J1, J2`). */
  designators: string;
  /** The side shown for it and its parts' designators there, as the caption reads in each language. */
  side: 'top' | 'bottom';
  caption: { en: string; zh: string };
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'laid out on the page').not.toBeNull();
  return box!;
}

/** The part of the window the reader sees the page through: below the header while it follows them, above /m's tab bar. */
async function visibleBand(page: Page): Promise<{ top: number; bottom: number }> {
  return page.evaluate(() => {
    const header = document.querySelector('.site-header, .m-top')!.getBoundingClientRect();
    const tabs = document.querySelector('.m-tabs')?.getBoundingClientRect();
    return { top: Math.max(0, header.bottom), bottom: tabs ? tabs.top : window.innerHeight };
  });
}

async function expectWhollyInBand(page: Page, locator: Locator, what: string): Promise<Box> {
  const box = await boxOf(locator);
  const band = await visibleBand(page);
  expect(box.y, `${what}: its top below the header`).toBeGreaterThanOrEqual(band.top - 1);
  expect(box.y + box.height, `${what}: its bottom in the window`).toBeLessThanOrEqual(band.bottom + 1);
  return box;
}

/**
 * The reader scrolls the BOM list of `/eda/{id}` (opened by the caller, islands live) down to a row
 * far down: the board beside the list (above it on a narrow screen) stays wholly in view all the
 * way, the row's parts are marked on it when the row is pointed at and picked, and neither hides
 * the other. `wide`: side by side, else the board above the list. `lang` names the caption's
 * language; `shots` a screenshot's name.
 */
export async function scrollBomToFarRow(page: Page, row: FarRow, { wide, lang, shot }: { wide: boolean; lang: 'en' | 'zh'; shot: string }): Promise<void> {
  const table = page.getByRole('table');
  const board = page.locator('.bom-board');
  const picture = board.locator('.bom-board-picture');
  const target = table.getByRole('row', { name: new RegExp(`^${row.designators}\\b`) });
  await expect(board).toBeVisible();

  // From the top of the list down, a part of the window at a time, as a reader scrolls.
  await table.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  let steps = 0;
  for (;;) {
    await expectWhollyInBand(page, picture, `the board after ${steps} steps down the list`);
    const box = await boxOf(target);
    const band = await visibleBand(page);
    if (box.y >= band.top && box.y + box.height <= band.bottom) break;
    expect(steps, 'the row is reached by scrolling').toBeLessThan(60);
    await page.evaluate(() => window.scrollBy(0, 150));
    steps += 1;
  }
  // The row was out of view: the list scrolled, and the board stayed in view at every step.
  expect(steps).toBeGreaterThanOrEqual(2);

  // The row pointed at (desktop) or tapped (phone), then picked: its parts are marked on the board.
  const button = target.getByRole('button', { name: row.designators, exact: true });
  if (wide) {
    await target.hover();
    await expect(board.locator('.part.is-lit')).toHaveCount(row.designators.split(', ').length);
    await button.click();
  } else {
    // (A tap is refused if anything covers the row, the board included.)
    await button.tap();
  }
  await expect(target).toHaveAttribute('aria-selected', 'true');
  await expect(board).toHaveAttribute('data-side', row.side);
  await expect(board.locator('figcaption')).toHaveText(row.caption[lang]);
  const lit = board.locator('.part.is-lit');
  await expect(lit).toHaveCount(row.designators.split(', ').length);

  // Board, marks and row all in view, the row beside the board or below it, never under it.
  const boardBox = await expectWhollyInBand(page, picture, 'the board with the part marked');
  for (const mark of await lit.all()) {
    const markBox = await expectWhollyInBand(page, mark, 'a marked part');
    expect(markBox.x).toBeGreaterThanOrEqual(boardBox.x - 1);
    expect(markBox.x + markBox.width).toBeLessThanOrEqual(boardBox.x + boardBox.width + 1);
  }
  const rowBox = await expectWhollyInBand(page, target, 'the picked row');
  const frameBox = await boxOf(page.locator('.bom-list .table-scroll'));
  if (wide) {
    // Side by side: the board right of the list's frame, level with it.
    expect(boardBox.x).toBeGreaterThanOrEqual(frameBox.x + frameBox.width);
    expect(boardBox.y).toBeLessThan(frameBox.y + frameBox.height);
    expect(boardBox.y + boardBox.height).toBeGreaterThan(frameBox.y);
  } else {
    expect(rowBox.y, 'the row below the board, not under it').toBeGreaterThanOrEqual((await boxOf(board)).y + (await boxOf(board)).height - 1);
    // The board keeps to at most 45 % of the window's height: the list keeps the rest.
    expect((await boxOf(board)).height).toBeLessThanOrEqual(page.viewportSize()!.height * 0.45);
  }
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${shot}-${lang}.png` });

  // Going back up the list by keyboard: each control reached is brought into view in the list, never under the board.
  const list = page.locator('.bom-list');
  if (wide) expect((await boxOf(list)).x + (await boxOf(list)).width, 'the list ends left of the board').toBeLessThanOrEqual(boardBox.x);
  await button.focus();
  for (let press = 1; press <= 12; press += 1) {
    await page.keyboard.press('Shift+Tab');
    const focused = page.locator(':focus');
    const focusBox = await expectWhollyInBand(page, focused, `the control reached by Shift+Tab ${press} times`);
    // (A link in a column the frame has scrolled away is shown at least in part, as the browser scrolls to it.)
    const listBox = await boxOf(list);
    expect(Math.min(focusBox.x + focusBox.width, listBox.x + listBox.width) - Math.max(focusBox.x, listBox.x), `the control reached by Shift+Tab ${press} times, in the list`).toBeGreaterThan(0);
    if (!wide) {
      const boardNow = await boxOf(board);
      expect(focusBox.y, `the control reached by Shift+Tab ${press} times, below the board`).toBeGreaterThanOrEqual(boardNow.y + boardNow.height - 1);
    }
  }
}

/**
 * The BOM's frame: the page itself never scrolls sideways, and every column header can be brought
 * into view inside the frame (by scrolling the frame when the columns do not fit, `overflows`), below
 * or beside the board and never under it.
 */
export async function expectBomFrameHoldsColumns(page: Page, { wide, overflows }: { wide: boolean; overflows?: boolean }): Promise<void> {
  const pageFits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await pageFits(), 'the page does not scroll sideways').toBe(true);
  const frame = page.locator('.bom-list .table-scroll');
  const sizes = await frame.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  if (overflows) expect(sizes.scroll, 'the columns run on inside the frame').toBeGreaterThan(sizes.client);
  const headers = page.getByRole('table').getByRole('columnheader');
  const count = await headers.count();
  expect(count).toBeGreaterThanOrEqual(4);
  // The header row brought into view as the keyboard brings it (below the board on a narrow screen).
  await headers.first().getByRole('button').focus();
  for (let index = 0; index < count; index += 1) {
    const header = headers.nth(index);
    // The frame scrolled sideways as a reader swipes it, until the end of the header's label shows at its right edge.
    await header.locator('.sort-mark').evaluate((element) => element.scrollIntoView({ block: 'nearest', inline: 'end' }));
    await expectWhollyInBand(page, header, `column header ${index + 1}`);
    // Its label (a column may be wider than a phone's frame) is wholly inside the frame, clear of the designators kept at its left.
    const label = await header.getByRole('button').evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const box = range.getBoundingClientRect();
      return { x: box.x, y: box.y, width: box.width, height: box.height };
    });
    const frameBox = await boxOf(frame);
    const designators = await boxOf(headers.first());
    const name = await header.innerText();
    expect(label.x, `${name}: its label inside the frame`).toBeGreaterThanOrEqual((index === 0 ? frameBox.x : designators.x + designators.width) - 1);
    expect(label.x + label.width, `${name}: its label inside the frame`).toBeLessThanOrEqual(frameBox.x + frameBox.width + 1);
    const boardBox = await boxOf(page.locator('.bom-board'));
    if (wide) expect(label.x + label.width).toBeLessThanOrEqual(boardBox.x);
    else expect(label.y, `${name}: below the board`).toBeGreaterThanOrEqual(boardBox.y + boardBox.height - 1);
  }
  if (overflows) expect(await frame.evaluate((element) => element.scrollLeft), 'the frame was scrolled to reach the last columns').toBeGreaterThan(0);
  expect(await pageFits()).toBe(true);
}

const SANGABOARD_J1_J2: FarRow = { designators: 'J1, J2', side: 'top', caption: { en: 'Top side: J1, J2', zh: '顶面：J1, J2' } };
// The Bitaxe's U14 sits under the board: the board beside the list turns to its bottom side.
const BITAXE_U14: FarRow = { designators: 'U14', side: 'bottom', caption: { en: 'Bottom side: U14', zh: '底面：U14' } };

/** `prefix` '' on desktop, '/m' on a phone; `wide` whether the window puts the board beside the list. */
export async function sangaboardBomJourney(page: Page, prefix: '' | '/m', wide: boolean): Promise<void> {
  const id = await sangaboardId(page.context().request);
  await openReadyBoard(page, `${prefix}/eda/${id}`);
  const shot = `bom-board-${wide ? 'desktop' : 'phone'}`;
  await scrollBomToFarRow(page, SANGABOARD_J1_J2, { wide, lang: 'en', shot });
  await expectBomFrameHoldsColumns(page, { wide, overflows: !wide });
  await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: page.url() }]);
  await page.reload();
  await expect(page.getByRole('heading', { name: '物料清单' })).toBeVisible();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await scrollBomToFarRow(page, SANGABOARD_J1_J2, { wide, lang: 'zh', shot });
  await expectBomFrameHoldsColumns(page, { wide, overflows: !wide });
}

/** The Bitaxe Ultra's BOM has seven columns and 46 lines: they scroll inside the frame, beside or below the board. */
export async function manyColumnsBomJourney(page: Page, prefix: '' | '/m', wide: boolean): Promise<void> {
  const id = await bitaxeId(page.context().request);
  await openReadyDesign(page, `${prefix}/eda/${id}`);
  await expectBomFrameHoldsColumns(page, { wide, overflows: true });
  await scrollBomToFarRow(page, BITAXE_U14, { wide, lang: 'en', shot: `bom-board-many-columns-${wide ? 'desktop' : 'phone'}` });
}
