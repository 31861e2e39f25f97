import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { writeH264Mp4 } from '../helpers/videos.ts';

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
