import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq, or } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_UA, PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { markerCorner, topLevelBoxes, writeH264Mp4, writeHevcMov, writeRotatedClip, writeTruncatedMp4, writeVp9Webm } from '../helpers/videos.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { VIDEO_PAGE_SIZE } from '../../src/lib/contract/video.ts';
import { getT } from '../../src/lib/i18n.ts';
import { getDb } from '../../src/server/db/client.ts';
import { videos, videoUploads } from '../../src/server/db/schema/index.ts';
import { ffprobePath } from '../../src/server/media/binaries.ts';
import { probeVideo } from '../../src/server/media/probe.ts';
import { runTool } from '../../src/server/media/run-tool.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { deleteAbandonedVideoUploads } from '../../src/server/services/media/index.ts';
import type { Video, VideoPlayback, VideoUploadTicket } from '../../src/lib/contract/schemas/videos.ts';

/**
 * Videos over HTTP as an app or a script uses them: a token, the bytes over tus (interrupted and
 * resumed), saving, processing in the queue, a signed address with Range, and every refusal.
 */
const app = useApp();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'copperhub-video-http-'));
let maker: Awaited<ReturnType<typeof createUser>>;
let other: Awaited<ReturnType<typeof createUser>>;
let clip: Buffer;

beforeAll(async () => {
  maker = await createUser({ nickname: 'Video Maker' });
  other = await createUser({ nickname: 'Someone Else' });
  clip = readFileSync(await writeH264Mp4(scratch, { seconds: 2 }));
  await startJobWorkers();
});

afterAll(async () => {
  await stopJobWorkers();
  rmSync(scratch, { recursive: true, force: true });
});

async function call<T>(endpoint: string, body: unknown, token?: string) {
  const response = await app.request(`/api/${endpoint}`, { method: 'POST', body, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
  return { status: response.status, body: response.json<{ retCode: number; result: T; errorKey?: string; fields?: Record<string, string> }>() };
}

const ticket = async (size: number, token = maker.token, mime = 'video/mp4') =>
  (await call<VideoUploadTicket>('video/getVideoToken', { name: 'bench.mp4', size, mime }, token)).body.result;

const tusIdOf = (location: string) => location.slice(location.lastIndexOf('/') + 1);

const metadata = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** Creates a tus upload; answers its absolute address (or the refusal's status). */
async function createUpload(uploadUrl: string, uploadToken: string, length: number): Promise<{ status: number; location: string | null }> {
  const response = await fetch(uploadUrl, {
    method: 'POST',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': metadata({ uploadToken, filename: 'bench.mp4', filetype: 'video/mp4' }) },
  });
  const location = response.headers.get('location');
  return { status: response.status, location: location ? new URL(location, uploadUrl).href : null };
}

async function patch(location: string, offset: number, bytes: Buffer): Promise<Response> {
  return fetch(location, {
    method: 'PATCH',
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  });
}

/** Uploads `bytes` whole; answers the token and the tus upload's id. */
async function uploadWhole(bytes: Buffer, token = maker.token, mime = 'video/mp4'): Promise<{ uploadToken: string; tusId: string }> {
  const { uploadUrl, uploadToken } = await ticket(bytes.length, token, mime);
  const { status, location } = await createUpload(uploadUrl, uploadToken, bytes.length);
  expect(status).toBe(201);
  expect((await patch(location!, 0, bytes)).status).toBe(204);
  return { uploadToken, tusId: tusIdOf(location!) };
}

/** The files of tus uploads in progress, in storage (`<tus id>/info.json`, `<tus id>/<offset>-….part`). */
const tusFiles = (): string[] => {
  const root = path.join(app.dataDir(), 'files', 'uploads');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
};

/** Every stored file (`DATA_DIR/files`), as paths under it. */
const storedFiles = () => readdirSync(path.join(app.dataDir(), 'files'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));

/** What the database still holds of video `id`: its row, and token rows spent on it or naming its upload. */
async function rowsOf(id: string, tusId: string) {
  const db = getDb();
  return {
    videos: await db.select({ id: videos.id }).from(videos).where(eq(videos.id, id)),
    uploads: await db.select({ tusId: videoUploads.tusId }).from(videoUploads).where(or(eq(videoUploads.videoId, id), eq(videoUploads.tusId, tusId))),
  };
}

/** Nothing of video `id` is left: no row, no token, no stored file, no tus bytes. */
async function expectNothingLeft(id: string, tusId: string) {
  expect(await rowsOf(id, tusId)).toEqual({ videos: [], uploads: [] });
  expect(storedFiles().filter((file) => file.includes(id))).toEqual([]);
  expect(tusFiles().filter((name) => name.startsWith(tusId))).toEqual([]);
}

/** Fetches an address of the site as a browser would, bytes and all. */
async function fetchBytes(address: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(new URL(address, app.origin()), { headers: { 'user-agent': DESKTOP_UA } });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

interface ProbedStream {
  codec_name?: string;
  side_data_list?: { side_data_type?: string }[];
  tags?: Record<string, string>;
}

/** The first video stream as ffprobe reports it, side data and tags included. */
async function videoStream(file: string): Promise<ProbedStream> {
  const result = await runTool(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-print_format', 'json', file], { timeoutMs: 30_000 });
  return (JSON.parse(result.stdout) as { streams: ProbedStream[] }).streams[0]!;
}

async function waitUntilSettled(id: string, token = maker.token): Promise<Video> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { body } = await call<{ list: Video[] }>('video/list', { url: maker.user.customUrl, page: 1, pageSize: 50 }, token);
    const video = body.result.list.find((item) => item.id === id);
    if (video && (video.status === 'ready' || video.status === 'failed')) return video;
    if (Date.now() > deadline) throw new Error(`video ${id} still ${video?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

describe('video/getVideoToken', () => {
  it('refuses guests, other types and sizes over the limit, with clear errors', async () => {
    expect((await call('video/getVideoToken', { name: 'a.mp4', size: 10, mime: 'video/mp4' })).status).toBe(401);
    expect((await call('video/getVideoToken', { name: 'a.txt', size: 10, mime: 'text/plain' }, maker.token)).body).toMatchObject({ errorKey: 'unsupported_type' });
    expect((await call('video/getVideoToken', { name: 'a.mp4', size: 5 * 1024 ** 3, mime: 'video/mp4' }, maker.token)).body).toMatchObject({ errorKey: 'too_large' });
    expect((await call('video/getVideoToken', { name: '', size: -1, mime: 'video/mp4' }, maker.token)).body).toMatchObject({ errorKey: 'validation' });
    // a zero-length file is refused before any upload exists
    const empty = await call('video/getVideoToken', { name: 'empty.mp4', size: 0, mime: 'video/mp4' }, maker.token);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ errorKey: 'validation', fields: { size: expect.any(String) } });
    const fine = await ticket(1234);
    expect(fine.uploadUrl).toBe(`${app.origin()}/api/video/upload`);
    expect(new Date(fine.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });
});

/** The `max-age` of a `cache-control` header, in seconds. */
const maxAge = (header: string | undefined) => Number(/(?:^|,)\s*max-age=(\d+)/.exec(header ?? '')?.[1] ?? NaN);

/** The member's address of a video (a guest's without `token`). */
const playbackUrl = async (id: string, token?: string) => (await call<VideoPlayback>('video/getVideoUrl', { id }, token)).body.result.url;

describe('an upload, interrupted and resumed, becomes a playable video', () => {
  it('resumes where it stopped, processes in the queue, and plays with Range through a signed address', async () => {
    const { uploadUrl, uploadToken } = await ticket(clip.length);
    const { status, location } = await createUpload(uploadUrl, uploadToken, clip.length);
    expect(status).toBe(201);
    // the connection drops after the first part
    const half = Math.floor(clip.length / 2);
    expect((await patch(location!, 0, clip.subarray(0, half))).status).toBe(204);
    // the client asks where it stands, and sends the rest from there
    const head = await fetch(location!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe(String(half));
    expect((await patch(location!, half, clip.subarray(half))).status).toBe(204);

    // someone else cannot save it; its owner can, once
    expect((await call('video/saveVideo', { uploadToken, title: 'Stolen' }, other.token)).body).toMatchObject({ errorKey: 'upload_not_found' });
    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'Assembling the board' }, maker.token);
    expect(saved.body.result).toMatchObject({ title: 'Assembling the board', status: 'processing', owner: { url: maker.user.customUrl } });
    expect((await call('video/saveVideo', { uploadToken, title: 'Again' }, maker.token)).body).toMatchObject({ errorKey: 'upload_used' });
    // the spent token's upload takes no more bytes
    expect((await patch(location!, clip.length, Buffer.from('x'))).status).toBe(404);

    const video = await waitUntilSettled(saved.body.result.id);
    expect(video).toMatchObject({ status: 'ready', width: expect.any(Number), height: expect.any(Number) });
    expect(video.duration).toBeCloseTo(2, 0);
    expect(video.poster).toMatch(/^\/files\/posters\/.+\.jpg$/);
    expect((await app.request(video.poster!)).status).toBe(200);

    const playback = (await call<VideoPlayback>('video/getVideoUrl', { id: video.id })).body.result;
    expect(playback.url).toMatch(new RegExp(`^/video/stream/${video.id}\\.mp4\\?exp=\\d+&sig=`));
    const whole = await app.request(playback.url);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    // kept by the browser five minutes at most: hiding or deleting it reaches it within that
    expect(maxAge(whole.headers['cache-control'])).toBe(300);
    const size = Number(whole.headers['content-length']);
    const ranged = await app.request(playback.url, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 0-99/${size}`);
    const suffix = await app.request(playback.url, { headers: { range: 'bytes=-100' } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
    expect((await app.request(playback.url, { headers: { range: `bytes=${size + 10}-` } })).status).toBe(416);

    // a tampered or expired address is refused; the stored file is not reachable by its key
    // (its first character changed for another: one signature in 64 already starts with `A`)
    expect((await app.request(playback.url.replace(/sig=(.)/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`))).status).toBe(403);
    expect((await app.request(playback.url.replace(/exp=\d+/, 'exp=1000'))).status).toBe(403);
    // the tus bytes are gone once the video is ready
    const tusId = location!.slice(location!.lastIndexOf('/') + 1);
    expect(tusFiles().filter((name) => name.startsWith(tusId))).toEqual([]);

    // only its owner deletes it; then it is gone everywhere
    expect((await call('video/del', { id: video.id }, other.token)).body).toMatchObject({ errorKey: 'video_not_found' });
    expect((await call('video/del', { id: video.id }, maker.token)).body).toMatchObject({ retCode: 0, result: { id: video.id } });
    expect((await app.request(playback.url)).status).toBe(404);
    expect((await app.request(video.poster!)).status).toBe(404);
    expect((await call('video/getVideoUrl', { id: video.id })).body).toMatchObject({ errorKey: 'video_not_found' });
    // no row of it, nor of the token it was saved from, and no file
    await expectNothingLeft(video.id, tusId);
  }, 120_000);

  it('a token whose upload was never created cannot be saved yet', async () => {
    const { uploadToken } = await ticket(clip.length);
    expect((await call('video/saveVideo', { uploadToken, title: 'No bytes' }, maker.token)).body).toMatchObject({ errorKey: 'upload_incomplete' });
    // nothing was made of it
    expect((await call<{ list: Video[] }>('video/list', { url: maker.user.customUrl, page: 1, pageSize: 50 }, maker.token)).body.result.list.filter((item) => item.title === 'No bytes')).toEqual([]);
  });
});

describe('an upload in progress, kept in storage', () => {
  it('keeps what arrived before the connection was cut, goes on from there, and is never served', async () => {
    const { uploadUrl, uploadToken } = await ticket(clip.length);
    const { location } = await createUpload(uploadUrl, uploadToken, clip.length);
    const tusId = tusIdOf(location!);
    // the record keeps no token beside the bytes
    expect(readFileSync(path.join(app.dataDir(), 'files', 'uploads', tusId, 'info.json'), 'utf8')).not.toContain(Buffer.from(uploadToken).toString('base64'));
    // a PATCH announcing the whole clip, cut after a third of it
    const third = Math.floor(clip.length / 3);
    await new Promise<void>((resolve) => {
      const request = http.request(location!, {
        method: 'PATCH',
        headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(clip.length) },
      });
      request.on('error', () => resolve());
      request.on('response', () => resolve());
      request.write(clip.subarray(0, third), () => setTimeout(() => request.destroy(), 300));
    });
    // the server kept those bytes: the client goes on from there, not from the start
    let offset = 0;
    for (const deadline = Date.now() + 5000; offset < third && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const head = await fetch(location!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
      offset = Number(head.headers.get('upload-offset'));
    }
    expect(offset).toBe(third);
    // the same bytes sent again (a client unsure what arrived) change nothing
    expect((await patch(location!, 0, clip.subarray(0, third))).status).toBe(409);
    expect((await patch(location!, third, clip.subarray(third))).status).toBe(204);
    expect(tusFiles().filter((name) => name.startsWith(`${tusId}/`) && name.endsWith('.part'))).toHaveLength(2);
    // parts and record are not files of the site
    for (const name of tusFiles().filter((file) => file.startsWith(`${tusId}/`))) expect((await app.request(`/files/uploads/${name}`)).status).toBe(404);

    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'Cut and resumed' }, maker.token);
    const video = await waitUntilSettled(saved.body.result.id);
    expect(video).toMatchObject({ status: 'ready' });
    expect(video.duration).toBeCloseTo(2, 0);
    expect(tusFiles().filter((name) => name.startsWith(`${tusId}/`))).toEqual([]);
    expect((await call('video/del', { id: video.id }, maker.token)).body).toMatchObject({ retCode: 0 });
  }, 120_000);
});

describe('a video saved while its bytes are still arriving', () => {
  it('is `uploading` for its owner only, takes the rest of its bytes, then processes and plays', async () => {
    const { uploadUrl, uploadToken } = await ticket(clip.length);
    const { location } = await createUpload(uploadUrl, uploadToken, clip.length);
    const third = Math.floor(clip.length / 3);
    expect((await patch(location!, 0, clip.subarray(0, third))).status).toBe(204);

    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'Saved early' }, maker.token);
    expect(saved.body.result).toMatchObject({ title: 'Saved early', status: 'uploading', poster: null });
    const id = saved.body.result.id;
    expect((await call('video/saveVideo', { uploadToken, title: 'Twice' }, maker.token)).body).toMatchObject({ errorKey: 'upload_used' });
    // no job yet: it stays uploading
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const listed = (token?: string) => call<{ list: Video[] }>('video/list', { url: maker.user.customUrl, page: 1, pageSize: 50 }, token);
    expect((await listed(maker.token)).body.result.list.find((item) => item.id === id)).toMatchObject({ status: 'uploading' });
    // invisible to others and to guests, in the list, the player and the page
    expect((await listed(other.token)).body.result.list.map((item) => item.id)).not.toContain(id);
    expect((await listed()).body.result.list.map((item) => item.id)).not.toContain(id);
    expect((await call('video/getVideoUrl', { id })).body).toMatchObject({ errorKey: 'video_not_found' });
    expect((await app.request(`/video/player?id=${id}`)).status).toBe(404);
    expect((await app.request(`/video/player?id=${id}`, { token: other.token })).status).toBe(404);
    // its owner reads that it is still uploading, on the player and on their videos page
    const player = await app.request(`/video/player?id=${id}`, { token: maker.token });
    expect(player.status).toBe(200);
    expect(player.body).toContain('data-video-status="uploading"');
    expect(player.body).toContain(getT('en-US')('video.uploadingTitle'));
    const own = await app.request(`/user/${maker.user.customUrl}/video`, { token: maker.token });
    expect(own.body).toMatch(new RegExp(`data-video-id="${id}" data-video-status="uploading"`));
    expect(own.body).toContain(getT('en-US')('video.list.uploadingHint'));
    expect((await app.request(`/user/${maker.user.customUrl}/video`)).body).not.toContain(id);

    // the client resumes: its upload is still open to it
    const head = await fetch(location!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe(String(third));
    expect((await patch(location!, third, clip.subarray(third))).status).toBe(204);
    const settling = (await listed(maker.token)).body.result.list.find((item) => item.id === id);
    expect(['processing', 'ready']).toContain(settling?.status);
    // the saved, finished upload is closed
    expect((await patch(location!, clip.length, Buffer.from('x'))).status).toBe(404);
    expect(await waitUntilSettled(id)).toMatchObject({ status: 'ready', title: 'Saved early' });
    expect((await listed()).body.result.list.map((item) => item.id)).toContain(id);
  }, 120_000);

  it('is deleted with its token and its bytes; the upload takes no more', async () => {
    const { uploadUrl, uploadToken } = await ticket(clip.length);
    const { location } = await createUpload(uploadUrl, uploadToken, clip.length);
    const tusId = tusIdOf(location!);
    expect((await patch(location!, 0, clip.subarray(0, 1000))).status).toBe(204);
    const saved = (await call<Video>('video/saveVideo', { uploadToken, title: 'Changed my mind' }, maker.token)).body.result;
    expect(saved.status).toBe('uploading');
    // a client cannot drop the bytes of a saved video from under it
    const terminate = await fetch(location!, { method: 'DELETE', headers: { 'tus-resumable': '1.0.0' } });
    expect(terminate.status).toBe(409);
    expect(tusFiles()).toContain(`${tusId}/info.json`);
    expect((await call('video/del', { id: saved.id }, maker.token)).body).toMatchObject({ retCode: 0 });
    await expectNothingLeft(saved.id, tusId);
    expect((await patch(location!, 1000, clip.subarray(1000))).status).toBe(404);
  });

  it('is removed by housekeeping, bytes and all, once its token expired; videos that got their bytes stay', async () => {
    const { uploadUrl, uploadToken } = await ticket(clip.length);
    const { location } = await createUpload(uploadUrl, uploadToken, clip.length);
    const tusId = tusIdOf(location!);
    expect((await patch(location!, 0, clip.subarray(0, 1000))).status).toBe(204);
    const stuck = (await call<Video>('video/saveVideo', { uploadToken, title: 'Never finished' }, maker.token)).body.result;
    const finished = await uploadWhole(clip);
    const kept = (await call<Video>('video/saveVideo', { uploadToken: finished.uploadToken, title: 'Finished in time' }, maker.token)).body.result;
    await waitUntilSettled(kept.id);
    // a day later: both tokens are past their lifetime
    const past = new Date(Date.now() - 60_000);
    await getDb().update(videoUploads).set({ expiresAt: past }).where(or(eq(videoUploads.videoId, stuck.id), eq(videoUploads.videoId, kept.id)));
    await deleteAbandonedVideoUploads();
    await expectNothingLeft(stuck.id, tusId);
    expect((await rowsOf(kept.id, finished.tusId)).videos).toEqual([{ id: kept.id }]);
    expect((await call<VideoPlayback>('video/getVideoUrl', { id: kept.id })).body.retCode).toBe(0);
  }, 120_000);
});

/**
 * What members upload from phones and cameras, through the real path (tus, save, the queue), and
 * what the site stores, read back through its signed address: H.264 with its index first, at most
 * 720 on the short side, upright with no turn left for a player to apply, and a JPEG poster.
 */
describe('every kind of upload is stored ready for any browser', () => {
  const kinds = {
    // above 720p: scaled down to 720 on its short side
    hevc: { write: (dir: string) => writeHevcMov(dir, { seconds: 1, width: 1280, height: 960 }), mime: 'video/quicktime', size: { width: 960, height: 720 }, corner: 'top-left' },
    vp9: { write: (dir: string) => writeVp9Webm(dir, { seconds: 1 }), mime: 'video/webm', size: { width: 320, height: 240 }, corner: 'top-left' },
    // a phone filming upright: landscape frames turned a quarter clockwise
    rotated: { write: (dir: string) => writeRotatedClip(dir, { seconds: 1, width: 640, height: 360, rotation: 90 }), mime: 'video/quicktime', size: { width: 360, height: 640 }, corner: 'top-right' },
  } as const;
  const saved = new Map<keyof typeof kinds, string>();

  beforeAll(async () => {
    // all uploaded and saved first, so the queue works through them while the first is checked
    for (const [kind, spec] of Object.entries(kinds) as [keyof typeof kinds, (typeof kinds)[keyof typeof kinds]][]) {
      const bytes = readFileSync(await spec.write(scratch));
      const { uploadToken } = await uploadWhole(bytes, maker.token, spec.mime);
      saved.set(kind, (await call<Video>('video/saveVideo', { uploadToken, title: `Clip ${kind}` }, maker.token)).body.result.id);
    }
  }, 120_000);

  it.each(Object.keys(kinds) as (keyof typeof kinds)[])('%s', async (kind) => {
    const spec = kinds[kind];
    const video = await waitUntilSettled(saved.get(kind)!);
    expect(video).toMatchObject({ status: 'ready', ...spec.size });
    expect(video.duration).toBeCloseTo(1, 0);

    const playback = (await call<VideoPlayback>('video/getVideoUrl', { id: video.id })).body.result;
    const stored = await fetchBytes(playback.url);
    expect(stored).toMatchObject({ status: 200, type: 'video/mp4' });
    const file = path.join(scratch, `stored-${kind}.mp4`);
    writeFileSync(file, stored.bytes);
    const boxes = await topLevelBoxes(file);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const probe = await probeVideo(file);
    expect(probe).toMatchObject({ videoCodec: 'h264', rotation: 0, ...spec.size, fastStart: true });
    expect(Math.min(probe.width, probe.height)).toBeLessThanOrEqual(720);
    // upright in its frames: no display matrix nor rotate tag for a player to apply again
    const stream = await videoStream(file);
    expect((stream.side_data_list ?? []).filter((side) => side.side_data_type === 'Display Matrix')).toEqual([]);
    expect(Number(stream.tags?.rotate ?? 0)).toBe(0);
    expect(await markerCorner(file, spec.size)).toBe(spec.corner);

    // the poster is a JPEG of the same shape, served to everyone
    expect(video.poster).toMatch(/^\/files\/posters\/.+\.jpg$/);
    const poster = await fetchBytes(video.poster!);
    expect(poster).toMatchObject({ status: 200, type: 'image/jpeg' });
    const picture = await sharp(poster.bytes).metadata();
    expect(picture.format).toBe('jpeg');
    expect((picture.width ?? 0) / (picture.height ?? 1)).toBeCloseTo(spec.size.width / spec.size.height, 1);
  }, 120_000);
});

describe('a video staff hide', () => {
  it('stops playing at the next request of any address but its owner’s and staff’s, and plays again once restored', async () => {
    const moderator = await createUser({ nickname: 'Video Moderator', role: 'moderator' });
    const { uploadToken } = await uploadWhole(clip);
    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'Reported clip' }, maker.token);
    expect((await waitUntilSettled(saved.body.result.id)).status).toBe('ready');
    const id = saved.body.result.id;

    // Addresses handed out before: to a guest, another member, the owner, a moderator.
    const guest = await playbackUrl(id);
    const member = await playbackUrl(id, other.token);
    const owner = await playbackUrl(id, maker.token);
    const staff = await playbackUrl(id, moderator.token);
    expect([guest, member].filter((url) => url.includes('scope='))).toEqual([]);
    expect(owner).toMatch(/&scope=owner$/);
    expect(staff).toMatch(/&scope=owner$/);
    const range = { headers: { range: 'bytes=0-99' } };
    for (const url of [guest, member, owner, staff, `${guest}&retry=1`]) {
      const answer = await app.request(url, range);
      expect(answer.status, url).toBe(206);
      expect(maxAge(answer.headers['cache-control'])).toBeLessThanOrEqual(300);
    }
    // The scope is signed: it cannot be added to a public address, nor taken off the owner's.
    expect((await app.request(`${guest}&scope=owner`, range)).status).toBe(403);
    expect((await app.request(owner.replace('&scope=owner', ''), range)).status).toBe(403);

    // A member reports it; a moderator hides it.
    const report = await call<{ id: number }>('report/submit', { kind: 'video', id, reason: 'spam' }, other.token);
    expect(report.status).toBe(200);
    expect((await call('admin/report/resolve', { id: report.body.result.id, action: 'hide', note: 'Spam' }, moderator.token)).status).toBe(200);

    // The very next request of an address handed out to anyone else is refused, seeking or not,
    // under the player's retry name too; a guest gets no new one.
    for (const url of [guest, member, `${guest}&retry=2`]) expect((await app.request(url, range)).status, url).toBe(404);
    expect((await app.request(guest)).status).toBe(404);
    expect((await call('video/getVideoUrl', { id })).body).toMatchObject({ errorKey: 'video_not_found' });
    // Its owner and staff still watch it, with the addresses they had and with new ones.
    for (const url of [owner, staff, await playbackUrl(id, maker.token), await playbackUrl(id, moderator.token)]) {
      const answer = await app.request(url, range);
      expect(answer.status, url).toBe(206);
      expect(answer.headers['content-range']).toMatch(/^bytes 0-99\//);
      expect(maxAge(answer.headers['cache-control'])).toBeLessThanOrEqual(300);
    }

    // Restored, the addresses handed out before play again.
    expect((await call('admin/content/restore', { kind: 'video', id }, moderator.token)).status).toBe(200);
    for (const url of [guest, member]) expect((await app.request(url, range)).status, url).toBe(206);
  }, 120_000);
});

describe('bad uploads', () => {
  it('refuse a foreign or reused token, a longer file than declared, and leave nothing behind', async () => {
    const { uploadUrl, uploadToken } = await ticket(100);
    expect((await createUpload(uploadUrl, 'not-a-token', 100)).status).toBe(403);
    expect((await createUpload(uploadUrl, uploadToken, 101)).status).toBe(413);
    const first = await createUpload(uploadUrl, uploadToken, 100);
    expect(first.status).toBe(201);
    expect((await createUpload(uploadUrl, uploadToken, 100)).status).toBe(409);
    // more bytes than declared never land
    expect((await patch(first.location!, 0, Buffer.alloc(150))).status).toBeGreaterThanOrEqual(400);
  });

  it('answer refusals in the API envelope, worded in the language of the request', async () => {
    const { uploadUrl, uploadToken } = await ticket(100);
    const post = (headers: Record<string, string>, token = uploadToken, length = 100) =>
      fetch(uploadUrl, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': metadata({ uploadToken: token }), ...headers } });
    const zh = getT('zh-CN');
    const en = getT('en-US');
    const chinese = await post({ 'accept-language': 'zh-CN,zh;q=0.9' }, 'not-a-token');
    expect(chinese.status).toBe(403);
    expect(chinese.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await chinese.json()).toEqual({ retCode: 403, errorKey: 'upload_not_found', message: zh('errors.upload_not_found') });
    // the language cookie wins over the header, as on every page
    const chosen = await post({ 'accept-language': 'zh-CN', cookie: 'i18n_redirected=en-US' }, uploadToken, 101);
    expect(chosen.status).toBe(413);
    expect(await chosen.json()).toEqual({ retCode: 413, errorKey: 'too_large', message: en('errors.too_large') });
    // tus's own refusals too: an upload it does not have, a write at the wrong offset
    const created = await createUpload(uploadUrl, uploadToken, 100);
    const stray = await fetch(`${uploadUrl}/0123456789abcdef0123`, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', cookie: 'i18n_redirected=zh-CN' } });
    expect(stray.status).toBe(404);
    const offset = await fetch(created.location!, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '50', 'content-type': 'application/offset+octet-stream', 'accept-language': 'zh-CN' },
      body: new Uint8Array(10),
    });
    expect(offset.status).toBe(409);
    expect(await offset.json()).toEqual({ retCode: 409, errorKey: 'conflict', message: zh('errors.conflict') });
  });

  it('a truncated MP4 fails as truncated, and nothing of it is stored', async () => {
    const cut = readFileSync(await writeTruncatedMp4(scratch));
    const { uploadToken, tusId } = await uploadWhole(cut);
    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'Cut short' }, maker.token);
    expect(saved.body.result.status).toBe('processing');
    const video = await waitUntilSettled(saved.body.result.id);
    expect(video).toMatchObject({ status: 'failed', errorKey: 'truncated', poster: null });
    expect(storedFiles().filter((file) => file.includes(video.id))).toEqual([]);
    expect(tusFiles().filter((name) => name.startsWith(tusId))).toEqual([]);
    const [row] = await getDb().select({ storageKey: videos.storageKey, poster: videos.poster, uploadId: videos.uploadId }).from(videos).where(eq(videos.id, video.id));
    expect(row).toMatchObject({ storageKey: null, poster: null });
    expect((await call('video/del', { id: video.id }, maker.token)).status).toBe(200);
    await expectNothingLeft(video.id, tusId);
  }, 120_000);

  it('a text file named .mp4 fails with its reason, and its bytes are removed', async () => {
    const text = Buffer.from('this is not a video, only a text file with a video name\n'.repeat(50));
    const { uploadToken, tusId } = await uploadWhole(text);
    expect(tusFiles()).toContain(`${tusId}/info.json`);
    const saved = await call<Video>('video/saveVideo', { uploadToken, title: 'Renamed text' }, maker.token);
    const video = await waitUntilSettled(saved.body.result.id);
    expect(video).toMatchObject({ status: 'failed', errorKey: 'not_video', poster: null });
    // guests never see it; its owner can delete it
    expect((await call('video/getVideoUrl', { id: video.id })).body).toMatchObject({ errorKey: 'video_not_found' });
    expect(tusFiles().filter((name) => name.startsWith(tusId))).toEqual([]);
    expect((await call('video/del', { id: video.id }, maker.token)).status).toBe(200);
  }, 120_000);

  it('links only to the owner’s own published project, at upload or later, and only the owner edits', async () => {
    const own = await createProject(maker.user.id, { title: 'Stepper driver' });
    const foreign = await createProject(other.user.id, { title: 'Not mine' });
    const { uploadToken } = await uploadWhole(clip);
    expect((await call('video/saveVideo', { uploadToken, title: 'Linked', projectId: foreign.publicId }, maker.token)).body).toMatchObject({ errorKey: 'project_not_found' });
    const saved = (await call<Video>('video/saveVideo', { uploadToken, title: 'Linked later' }, maker.token)).body.result;
    expect(saved.project).toBeNull();
    const linked = await call<Video>('video/edit', { id: saved.id, projectId: own.publicId, title: 'Winding the coils' }, maker.token);
    expect(linked.body.result).toMatchObject({ title: 'Winding the coils', project: { id: own.publicId, title: 'Stepper driver' } });
    expect((await call('video/edit', { id: saved.id, projectId: null }, other.token)).body).toMatchObject({ errorKey: 'video_not_found' });
    expect((await call<Video>('video/edit', { id: saved.id, projectId: null }, maker.token)).body.result.project).toBeNull();
    await waitUntilSettled(saved.id);
  }, 120_000);
});

describe('a member’s videos page', () => {
  it('pages through every video, on desktop and phone, for visitors and the owner alike', async () => {
    const prolific = await createUser({ nickname: 'Prolific Filmer' });
    const total = VIDEO_PAGE_SIZE + 2;
    const ids = Array.from({ length: total }, () => newPublicId());
    // newest first: the first id is the newest video
    await getDb()
      .insert(videos)
      .values(ids.map((id, index) => ({ id, ownerId: prolific.user.id, title: `Take ${index + 1}`, storageKey: `videos/${id}.mp4`, mime: 'video/mp4', size: 1000, status: 'ready' as const, createdAt: new Date(Date.now() - index * 60_000) })));
    const cards = (body: string) => [...body.matchAll(/data-video-id="([a-z0-9]+)"/g)].map((match) => match[1]);
    const base = `/user/${prolific.user.customUrl}/video`;
    for (const prefix of ['', '/m']) {
      for (const viewer of [undefined, prolific.token]) {
        const label = `${prefix || 'desktop'} as ${viewer ? 'owner' : 'guest'}`;
        const first = await app.request(`${prefix}${base}`, { ...(viewer ? { token: viewer } : {}), headers: { 'user-agent': prefix ? PHONE_UA : DESKTOP_UA } });
        expect(first.status, label).toBe(200);
        expect(cards(first.body), label).toEqual(ids.slice(0, VIDEO_PAGE_SIZE));
        expect(first.body, label).toContain(`rel="next" href="${prefix}${base}?page=2"`);
        const second = await app.request(`${prefix}${base}?page=2`, { ...(viewer ? { token: viewer } : {}), headers: { 'user-agent': prefix ? PHONE_UA : DESKTOP_UA } });
        expect(second.status, label).toBe(200);
        expect(cards(second.body), label).toEqual(ids.slice(VIDEO_PAGE_SIZE));
        expect(second.body, label).toContain(`rel="prev" href="${prefix}${base}"`);
      }
    }
  });
});
