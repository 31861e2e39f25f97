import { expect, type Page, type TestInfo } from '@playwright/test';
import { call, makeStaff, registerOverHttp, signInOverHttp } from './conversation-helpers.ts';
import { expectPlaying, makeClip, slowVideoLine, uploadReadyVideo, videoState, type LineFault } from './video-helpers.ts';

/**
 * A guest watching a film over a slow line, on the desktop site (`prefix` '') or the phone's
 * (`/m`): when the source stops answering mid-play the player goes on where it was; when staff
 * hide the video meanwhile it says the video is no longer available, in the reader's language.
 */

/** A new member's 30-second film, ready to play; answers its id. */
async function readyFilm(baseURL: string, name: string): Promise<string> {
  const owner = await registerOverHttp(baseURL, 'Film Maker');
  return uploadReadyVideo(owner, await makeClip(`${name}.mp4`, { seconds: 30 }), `${name} ${Date.now().toString(36)}`);
}

/** Opens the player page and starts the film with the player's own Play button. */
async function startFilm(page: Page, prefix: '' | '/m', id: string, play: string): Promise<void> {
  await page.goto(`${prefix}/video/player?id=${id}`);
  await expect(page.locator('.video-player')).toBeVisible();
  await page.getByRole('button', { name: play }).first().click();
  await expectPlaying(page);
}

/**
 * Spoils the next request for the film's bytes once it has played past `after` seconds, and
 * checks that it plays on from where it was: never, while playing, back before that moment, and
 * soon well past it.
 */
async function expectPlaysOnThrough(page: Page, line: Awaited<ReturnType<typeof slowVideoLine>>, fault: LineFault, after: number): Promise<void> {
  await expect.poll(async () => (await videoState(page))?.time ?? 0, { timeout: 30_000 }).toBeGreaterThan(after);
  const spoiled = line.faults + 1;
  const before = (await videoState(page))!.time;
  line.fail(fault);
  await expect.poll(() => line.faults, { timeout: 15_000 }).toBe(spoiled);
  let lowest = Infinity;
  await expect
    .poll(
      async () => {
        const state = await videoState(page);
        if (state?.playing) lowest = Math.min(lowest, state.time);
        return state?.playing === true && state.time > before + 2;
      },
      { timeout: 20_000, intervals: [100] },
    )
    .toBe(true);
  expect(lowest).toBeGreaterThanOrEqual(before - 0.5);
  await expect(page.getByTestId('video-unavailable')).toHaveCount(0);
}

export async function resumeJourney(page: Page, baseURL: string, prefix: '' | '/m', testInfo: TestInfo): Promise<void> {
  const id = await readyFilm(baseURL, 'Long take');
  const line = await slowVideoLine(page);
  // The very first request refused too (an address that expired before the page was looked at):
  // the player asks again by itself, and Play plays.
  line.fail(403);
  await startFilm(page, prefix, id, 'Play');
  expect(line.faults).toBe(1);
  // A range request cut off mid-play, as on a poor line.
  await expectPlaysOnThrough(page, line, 'abort', 3);
  // A range request refused, as a bucket refuses its address once it expired (five minutes).
  await expectPlaysOnThrough(page, line, 403, (await videoState(page))!.time + 1);
  await page.screenshot({ path: testInfo.outputPath(`video-recovered${prefix ? '-mobile' : ''}.png`) });
}

export async function hiddenJourney(page: Page, baseURL: string, prefix: '' | '/m', locale: 'en-US' | 'zh-CN', testInfo: TestInfo): Promise<void> {
  const id = await readyFilm(baseURL, 'Reported film');
  const email = `film-moderator-${Date.now().toString(36)}@example.com`;
  const moderator = await signInOverHttp(baseURL, { email, password: 'correct horse battery', nickname: 'Film Moderator' });
  makeStaff(email, 'moderator');
  if (locale === 'zh-CN') await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL }]);
  await slowVideoLine(page);
  await startFilm(page, prefix, id, locale === 'zh-CN' ? '播放' : 'Play');

  // While the guest watches, the film is reported and a moderator hides it.
  const report = await call<{ id: number }>(moderator.api, 'report/submit', { kind: 'video', id, reason: 'spam' });
  expect(report.retCode, JSON.stringify(report)).toBe(0);
  const hidden = await call(moderator.api, 'admin/report/resolve', { id: report.result.id, action: 'hide', note: 'Spam film' });
  expect(hidden.retCode, JSON.stringify(hidden)).toBe(0);

  // The next bytes it asks for are refused: the player says so instead of freezing.
  const message = page.getByRole('alert').filter({ has: page.getByRole('heading') });
  await expect(message.getByRole('heading')).toHaveText(locale === 'zh-CN' ? '该视频已不可用' : 'This video is no longer available', { timeout: 30_000 });
  await expect(message).toContainText(locale === 'zh-CN' ? '它可能已被上传者删除，或已被管理员隐藏。' : 'Its owner may have deleted it, or the moderators hidden it.');
  await expect(page.locator('video')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath(`video-hidden-${locale}${prefix ? '-mobile' : ''}.png`) });
}
