import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useS3Storage } from '../helpers/s3.ts';
import { DESKTOP_UA, useApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';
import { writeH264Mp4 } from '../helpers/videos.ts';
import { getDb } from '../../src/server/db/client.ts';
import { videos, videoUploads } from '../../src/server/db/schema/index.ts';
import { deleteAbandonedVideoUploads } from '../../src/server/services/media/index.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import type { Video, VideoPlayback, VideoUploadTicket } from '../../src/lib/contract/schemas/videos.ts';

/**
 * The site with its files in an S3 bucket (a real s3rver started here): what members upload goes
 * to the bucket, never to the disk, and comes back at the same addresses — images relayed with
 * the bucket's validators and ranges, attachments and videos by presigned redirects — and what
 * the site deletes leaves the bucket.
 */
const bucket = useS3Storage();
const app = useApp();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'copperhub-s3-http-'));
let maker: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  maker = await createUser({ nickname: 'Bucket Maker' });
  await startJobWorkers();
});
afterAll(async () => {
  await stopJobWorkers();
  rmSync(scratch, { recursive: true, force: true });
});

async function call<T>(endpoint: string, body: unknown, token = maker.token) {
  const response = await app.request(`/api/${endpoint}`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
  return response.json<{ retCode: number; result: T; errorKey?: string }>();
}

async function upload(purpose: string, name: string, bytes: Buffer): Promise<{ url: string }> {
  const form = new FormData();
  form.set('purpose', purpose);
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${app.origin()}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${maker.token}` } });
  const body = (await response.json()) as { retCode: number; result: { url: string } };
  expect(body.retCode).toBe(0);
  return body.result;
}

/** The bytes the bucket holds under `key`, or null. */
async function objectBytes(key: string): Promise<Buffer | null> {
  try {
    const answer = await bucket().client.send(new GetObjectCommand({ Bucket: bucket().bucket, Key: key }));
    return Buffer.from(await answer.Body!.transformToByteArray());
  } catch {
    return null;
  }
}

/** The keys the bucket holds under `prefix`. */
async function objectKeys(prefix: string): Promise<string[]> {
  const answer = await bucket().client.send(new ListObjectsV2Command({ Bucket: bucket().bucket, Prefix: prefix }));
  return (answer.Contents ?? []).map((item) => item.Key!).sort();
}

/** A tus upload of `size` bytes begun with a new token: its address and token. */
async function beginUpload(size: number): Promise<{ location: string; uploadToken: string; tusId: string }> {
  const ticket = (await call<VideoUploadTicket>('video/getVideoToken', { name: 'clip.mp4', size, mime: 'video/mp4' })).result;
  const metadata = `uploadToken ${Buffer.from(ticket.uploadToken).toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`;
  const created = await fetch(ticket.uploadUrl, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': metadata } });
  expect(created.status).toBe(201);
  const location = new URL(created.headers.get('location')!, ticket.uploadUrl).href;
  return { location, uploadToken: ticket.uploadToken, tusId: location.slice(location.lastIndexOf('/') + 1) };
}

async function patchBytes(location: string, offset: number, bytes: Buffer): Promise<number> {
  const response = await fetch(location, {
    method: 'PATCH',
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  });
  return response.status;
}

async function objectExists(key: string): Promise<boolean> {
  try {
    await bucket().client.send(new HeadObjectCommand({ Bucket: bucket().bucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

/** Waits until the processing queue made video `id` ready (from the bucket, into the bucket). */
async function waitUntilReady(id: string): Promise<Video> {
  const deadline = Date.now() + 90_000;
  let video: Video | undefined;
  while (video?.status !== 'ready') {
    if (video?.status === 'failed' || Date.now() > deadline) throw new Error(`video ${id} is ${video?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    video = (await call<{ list: Video[] }>('video/list', { url: maker.user.customUrl, page: 1, pageSize: 50 })).result.list.find((item) => item.id === id);
  }
  return video;
}

/** The seconds a presigned address of the bucket is valid for (`X-Amz-Expires`). */
const presignedSeconds = (location: string) => Number(new URL(location).searchParams.get('X-Amz-Expires'));

describe('with the files in an S3 bucket', () => {
  it('serves an uploaded image at its /files/ address from the bucket, with validators, 304 and ranges', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a7' } }).png().toBuffer();
    const { url } = await upload('image', 'board.png', png);
    const key = url.slice('/files/'.length);
    const stored = await objectBytes(key);
    expect(stored?.subarray(8, 12).toString()).toBe('WEBP');
    // in the bucket only: nothing under DATA_DIR/files
    expect(existsSync(path.join(app.dataDir(), 'files', key))).toBe(false);

    const whole = await fetch(new URL(url, app.origin()), { headers: { 'user-agent': DESKTOP_UA } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/webp');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(whole.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(stored);
    const etag = whole.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const again = await app.request(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const ranged = await app.request(url, { headers: { range: 'bytes=0-11' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 0-11/${stored!.length}`);
    expect(ranged.body.slice(8, 12)).toBe('WEBP');
    expect((await app.request(url, { headers: { range: `bytes=${stored!.length + 5}-` } })).status).toBe(416);
    const head = await app.request(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(stored!.length));
    expect(head.body).toBe('');
    expect((await app.request('/files/images/zz/not-there.webp')).status).toBe(404);
    expect((await app.request('/files/images/../../etc/passwd')).status).toBe(404);
  });

  it('sends an attachment download to a presigned address of the bucket', async () => {
    const csv = Buffer.from('Designator,Value\nR1,10k\n');
    const { url } = await upload('attachment', 'parts.csv', csv);
    const redirect = await app.request(url);
    expect(redirect.status).toBe(302);
    expect(redirect.headers['cache-control']).toBe('private, no-store');
    const location = redirect.headers.location!;
    expect(location.startsWith(`${bucket().endpoint}/${bucket().bucket}/attachments/`)).toBe(true);
    const download = await fetch(location);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(csv);
  });

  it('processes an uploaded video into the bucket, plays it with Range from a presigned address, and deletes it from the bucket', async () => {
    const clip = readFileSync(await writeH264Mp4(scratch, { seconds: 2 }));
    const { location, uploadToken, tusId } = await beginUpload(clip.length);
    const half = Math.floor(clip.length / 2);
    expect(await patchBytes(location, 0, clip.subarray(0, half))).toBe(204);
    // the upload in progress is in the bucket, where any instance and worker reach it, not on this disk
    const keys = await objectKeys(`uploads/${tusId}/`);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(new RegExp(`^uploads/${tusId}/0000000000000-[0-9a-f]{8}\\.part$`));
    expect(keys[1]).toBe(`uploads/${tusId}/info.json`);
    expect(await patchBytes(location, half, clip.subarray(half))).toBe(204);
    expect(existsSync(path.join(app.dataDir(), 'files', 'uploads'))).toBe(false);
    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'From the bucket' });
    expect(saved.retCode).toBe(0);
    const video = await waitUntilReady(saved.result.id);
    const [row] = await getDb().select({ storageKey: videos.storageKey, poster: videos.poster, size: videos.size }).from(videos).where(eq(videos.id, video.id));
    expect(await objectExists(row!.storageKey!)).toBe(true);
    // the worker read the parts from the bucket and removed them
    expect(await objectKeys(`uploads/${tusId}/`)).toEqual([]);
    expect(existsSync(path.join(app.dataDir(), 'files', row!.storageKey!))).toBe(false);
    // the poster is an image at its /files/ address, relayed from the bucket
    const poster = await app.request(video.poster!);
    expect(poster.status).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');

    const playback = (await call<VideoPlayback>('video/getVideoUrl', { id: video.id })).result;
    const redirect = await app.request(playback.url);
    expect(redirect.status).toBe(302);
    expect(redirect.headers['cache-control']).toBe('private, no-store');
    const presigned = redirect.headers.location!;
    // valid five minutes, not as long as the site's address: a video hidden since is refused at the next redirect
    expect(presignedSeconds(presigned)).toBe(300);
    expect(presigned.startsWith(`${bucket().endpoint}/${bucket().bucket}/videos/`)).toBe(true);
    // what a browser's player does after the redirect: ask the bucket for ranges
    const ranged = await fetch(presigned, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${row!.size}`);
    expect(ranged.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await ranged.arrayBuffer()).subarray(4, 8).toString()).toBe('ftyp');
    // pages let the player follow the redirect to the bucket
    const page = await app.request(`/video/player?id=${video.id}`);
    expect(page.headers['content-security-policy']).toContain(`media-src 'self' blob: ${bucket().endpoint}`);

    expect((await call('video/del', { id: video.id })).retCode).toBe(0);
    expect(await objectExists(row!.storageKey!)).toBe(false);
    expect(await objectExists(row!.poster!)).toBe(false);
    expect((await app.request(playback.url)).status).toBe(404);
    expect((await app.request(video.poster!)).status).toBe(404);
  }, 120_000);

  it('refuses a guest’s address at the next request once staff hide the video, plays on for its owner, and again once restored', async () => {
    const moderator = await createUser({ nickname: 'Bucket Moderator', role: 'moderator' });
    const reporter = await createUser({ nickname: 'Bucket Reporter' });
    const clip = readFileSync(await writeH264Mp4(scratch, { seconds: 2, name: 'hidden.mp4' }));
    const { location, uploadToken } = await beginUpload(clip.length);
    expect(await patchBytes(location, 0, clip)).toBe(204);
    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'Hidden in the bucket' });
    const { id } = await waitUntilReady(saved.result.id);
    const guest = (await app.request('/api/video/getVideoUrl', { method: 'POST', body: { id } })).json<{ result: VideoPlayback }>().result.url;
    const owner = (await call<VideoPlayback>('video/getVideoUrl', { id })).result.url;
    expect(guest).not.toContain('scope=');
    expect(owner).toMatch(/&scope=owner$/);

    /** Where the address sends the browser now, checked by reading a range there; or the refusal's status. */
    const follow = async (url: string) => {
      const answer = await app.request(url, { headers: { range: 'bytes=0-99' } });
      if (answer.status !== 302) return answer.status;
      const presigned = answer.headers.location!;
      expect(presignedSeconds(presigned)).toBeGreaterThanOrEqual(60);
      expect(presignedSeconds(presigned)).toBeLessThanOrEqual(300);
      const ranged = await fetch(presigned, { headers: { range: 'bytes=0-99' } });
      expect(Buffer.from(await ranged.arrayBuffer()).subarray(4, 8).toString()).toBe('ftyp');
      return ranged.status;
    };
    expect(await follow(guest)).toBe(206);
    expect(await follow(owner)).toBe(206);

    const report = await call<{ id: number }>('report/submit', { kind: 'video', id, reason: 'spam' }, reporter.token);
    expect((await call('admin/report/resolve', { id: report.result.id, action: 'hide', note: 'Spam' }, moderator.token)).retCode).toBe(0);
    expect(await follow(guest)).toBe(404);
    expect(await follow(`${guest}&retry=1`)).toBe(404);
    expect(await follow(owner)).toBe(206);

    expect((await call('admin/content/restore', { kind: 'video', id }, moderator.token)).retCode).toBe(0);
    expect(await follow(guest)).toBe(206);
  }, 120_000);

  it('removes an abandoned upload from the bucket once its token expired', async () => {
    const { location, tusId } = await beginUpload(4096);
    expect(await patchBytes(location, 0, Buffer.alloc(1000, 7))).toBe(204);
    expect(await objectKeys(`uploads/${tusId}/`)).toHaveLength(2);
    // a day later, never finished nor saved
    await getDb().update(videoUploads).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(videoUploads.tusId, tusId));
    await deleteAbandonedVideoUploads();
    expect(await objectKeys(`uploads/${tusId}/`)).toEqual([]);
    const head = await fetch(location, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(404);
  });
});
