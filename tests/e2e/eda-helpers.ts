import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

/** The demo Sangaboard: a KiCad board with a JLC BOM and a pick-and-place file (demo content, only read). */
export async function sangaboardId(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/project/search', { data: { q: 'Sangaboard' } });
  const body = await response.json();
  const project = (body.result.list as { id: string; title: string }[]).find((item) => item.title.startsWith('Sangaboard'));
  expect(project, 'the demo Sangaboard project').toBeTruthy();
  return project!.id;
}

const READY_TIMEOUT = 90_000;

/**
 * Opens `/eda/{id}` (or its `/m` address) once its board is ready: the queue renders the demo
 * boards after the server starts, so a fresh server may still be at it (the page refreshes itself).
 * `live: false` for a browser without JavaScript, whose islands stay as the server rendered them.
 */
export async function openReadyBoard(page: Page, path: string, { live = true } = {}): Promise<void> {
  // The wait for the queue comes on top of the test's own time (2 cores render four boards at start).
  test.info().setTimeout(test.info().timeout + READY_TIMEOUT);
  await expect
    .poll(
      async () => {
        await page.goto(path);
        // Read at once, without waiting: until the queue has planned the board the page shows none.
        const states = await page.locator('[data-board-status]').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-board-status')));
        return states[0] ?? 'none';
      },
      { timeout: READY_TIMEOUT, intervals: [1_000, 2_000, 3_000] },
    )
    .toBe('ready');
  // Interaction counts once both islands are live (Astro drops their `ssr` mark then).
  if (live) await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** The demo Bitaxe Ultra: a KiCad project (five sheets, its board, BOM, placements and design checks read from it). */
export async function bitaxeId(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/project/search', { data: { q: 'Bitaxe Ultra' } });
  const body = await response.json();
  const project = (body.result.list as { id: string; title: string }[]).find((item) => item.title.startsWith('Bitaxe Ultra'));
  expect(project, 'the demo Bitaxe Ultra project').toBeTruthy();
  return project!.id;
}

/**
 * Opens `/eda/{id}` (or another address of it) once its KiCad design is read and its board
 * rendered: `kicad-cli` reads the demo sources after the server starts, then the board is made
 * from their Gerbers. Waits for the islands to be live.
 */
export async function openReadyDesign(page: Page, path: string): Promise<void> {
  test.info().setTimeout(test.info().timeout + READY_TIMEOUT * 2);
  await expect
    .poll(
      async () => {
        // While the queue works the page refreshes itself every 5 s, which aborts a slow navigation: try again.
        if (!(await page.goto(path).then(() => true, () => false))) return 'navigation aborted';
        const tabs = await page.getByRole('tab').count();
        const board = await page.locator('[data-board-status]').first().getAttribute('data-board-status', { timeout: 1_000 }).catch(() => 'none');
        return tabs > 0 && board === 'ready' ? 'ready' : `tabs ${tabs}, board ${board}`;
      },
      { timeout: READY_TIMEOUT * 2, intervals: [1_000, 2_000, 3_000] },
    )
    .toBe('ready');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}
