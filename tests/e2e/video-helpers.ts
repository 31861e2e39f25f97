import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { writeH264Mp4 } from '../helpers/videos.ts';
import { call, type SignedIn } from './conversation-helpers.ts';

/** A small real H.264 clip (a test picture and a tone) in a temp folder of its own. */
export async function makeClip(name: string, options: { seconds?: number; width?: number; height?: number } = {}): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-e2e-video-'));
  return writeH264Mp4(dir, { seconds: 3, width: 320, height: 240, name, ...options });
}

/** The owner's card of the video titled `title` on their videos page. */
export function videoCard(page: Page, title: string): Locator {
  return page.locator('.video-card').filter({ has: page.getByRole('heading', { name: title }) });
}

/**
 * Picks a file in the uploader as a person does: once the island is live (its "Choose" button
 * enabled), since a file set on the hidden input before hydration reaches no handler.
 */
export async function pickVideo(page: Page, file: Parameters<Locator['setInputFiles']>[0]): Promise<void> {
  await expect(page.getByRole('button', { name: /^Choose (a|another) video$|^选择/ })).toBeEnabled();
  await page.getByTestId('video-file').setInputFiles(file);
}

/** Picks `file` on the owner's videos page, titles it and uploads it; answers once it is saved. */
export async function uploadVideo(page: Page, file: string, title: string): Promise<void> {
  await pickVideo(page, file);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `“${title}” is uploaded and being prepared` })).toBeVisible({ timeout: 30_000 });
}

/** Waits until the list, asking by itself, shows the video ready. */
export async function waitUntilReady(page: Page, title: string): Promise<void> {
  await expect(videoCard(page, title)).toHaveAttribute('data-video-status', 'ready', { timeout: 90_000 });
}

/** Whether the page's video element is playing: not paused and its time moving. */
export async function expectPlaying(page: Page): Promise<void> {
  const video = page.locator('video').first();
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0.2), { timeout: 15_000 }).toBe(true);
}

const base64 = (value: string) => Buffer.from(value).toString('base64');

/**
 * Uploads `file` as `owner` the way an app does (a token, the bytes over tus, `video/saveVideo`)
 * and waits until the queue made it ready; answers its id. For tests about playing, not uploading.
 */
export async function uploadReadyVideo(owner: SignedIn, file: string, title: string): Promise<string> {
  const bytes = readFileSync(file);
  const ticket = await call<{ uploadUrl: string; uploadToken: string }>(owner.api, 'video/getVideoToken', { name: path.basename(file), size: bytes.length, mime: 'video/mp4' });
  expect(ticket.retCode, JSON.stringify(ticket)).toBe(0);
  const tus = { 'tus-resumable': '1.0.0' };
  const created = await owner.api.post(ticket.result.uploadUrl, {
    headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': `uploadToken ${base64(ticket.result.uploadToken)},filetype ${base64('video/mp4')}` },
  });
  expect(created.status()).toBe(201);
  const location = new URL(created.headers().location!, ticket.result.uploadUrl).href;
  const patched = await owner.api.patch(location, { headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, data: bytes });
  expect(patched.status()).toBe(204);
  const saved = await call<{ id: string }>(owner.api, 'video/saveVideo', { uploadToken: ticket.result.uploadToken, title });
  expect(saved.retCode, JSON.stringify(saved)).toBe(0);
  const status = async () => (await call<{ list: { id: string; status: string }[] }>(owner.api, 'video/list', { url: owner.user.url, page: 1, pageSize: 50 })).result.list.find((video) => video.id === saved.result.id)?.status;
  await expect.poll(status, { timeout: 90_000 }).toBe('ready');
  return saved.result.id;
}

/** What the next request for the video's bytes gets instead of them: cut off, or an answer with this status. */
export type LineFault = 'abort' | number;

/**
 * The page's video over a slow line: every request for its bytes waits a second and gets at most
 * 128 KB (a 206 for less than asked, which browsers take and ask on from), so the browser keeps
 * asking for ranges while it plays. `fail` spoils the next request for bytes; `faults` counts the
 * spoiled ones. Other requests of the address (the player's HEAD) pass as they are.
 */
export async function slowVideoLine(page: Page) {
  const CHUNK = 128 * 1024;
  const queued: LineFault[] = [];
  const line = { faults: 0, fail: (fault: LineFault) => void queued.push(fault) };
  await page.route('**/video/stream/**', async (route) => {
    const request = route.request();
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers().range ?? '');
    if (request.method() !== 'GET' || !range) return route.continue().catch(() => undefined);
    const fault = queued.shift();
    if (fault !== undefined) {
      line.faults += 1;
      return (fault === 'abort' ? route.abort('connectionreset') : route.fulfill({ status: fault, contentType: 'text/plain', body: `${fault}\n` })).catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), start + CHUNK - 1) : start + CHUNK - 1;
    await route.continue({ headers: { ...request.headers(), range: `bytes=${start}-${end}` } }).catch(() => undefined);
  });
  return line;
}

/** Where the page's video is and whether it is playing (with data to play); null once the player gave way to a message. */
export function videoState(page: Page) {
  return page.evaluate(() => {
    const video = document.querySelector('video');
    return video ? { time: video.currentTime, playing: !video.paused && video.readyState >= 3 } : null;
  });
}
