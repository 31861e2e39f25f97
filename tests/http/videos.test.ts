import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { writeH264Mp4 } from '../helpers/videos.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import type { Video, VideoPlayback, VideoUploadTicket } from '../../src/lib/contract/video.ts';

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
async function uploadWhole(bytes: Buffer, token = maker.token): Promise<{ uploadToken: string; tusId: string }> {
  const { uploadUrl, uploadToken } = await ticket(bytes.length, token);
  const { status, location } = await createUpload(uploadUrl, uploadToken, bytes.length);
  expect(status).toBe(201);
  expect((await patch(location!, 0, bytes)).status).toBe(204);
  return { uploadToken, tusId: location!.slice(location!.lastIndexOf('/') + 1) };
}

/** The tus uploads on disk (each a file and its `.json` record). */
const tusFiles = () => readdirSync(path.join(app.dataDir(), 'uploads', 'tus'));

async function waitUntilSettled(id: string, token = maker.token): Promise<Video> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { body } = await call<{ list: Video[] }>('video/list', { url: maker.user.customUrl, page: 1, pageSize: 20 }, token);
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
    const fine = await ticket(1234);
    expect(fine.uploadUrl).toBe(`${app.origin()}/api/video/upload`);
    expect(new Date(fine.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });
});

describe('an upload, interrupted and resumed, becomes a playable video', () => {
  it('resumes where it stopped, processes in the queue, and plays with Range through a signed address', async () => {
    const { uploadUrl, uploadToken } = await ticket(clip.length);
    const { status, location } = await createUpload(uploadUrl, uploadToken, clip.length);
    expect(status).toBe(201);
    // the connection drops after the first part
    const half = Math.floor(clip.length / 2);
    expect((await patch(location!, 0, clip.subarray(0, half))).status).toBe(204);
    // saving too early is refused and changes nothing
    expect((await call('video/saveVideo', { uploadToken, title: 'Too early' }, maker.token)).body).toMatchObject({ errorKey: 'upload_incomplete' });
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
    expect(whole.headers['cache-control']).toMatch(/max-age=\d{4,}/);
    const size = Number(whole.headers['content-length']);
    const ranged = await app.request(playback.url, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 0-99/${size}`);
    const suffix = await app.request(playback.url, { headers: { range: 'bytes=-100' } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
    expect((await app.request(playback.url, { headers: { range: `bytes=${size + 10}-` } })).status).toBe(416);

    // a tampered or expired address is refused; the stored file is not reachable by its key
    expect((await app.request(playback.url.replace(/sig=./, 'sig=A'))).status).toBe(403);
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

  it('a text file named .mp4 fails with its reason, and its bytes are removed', async () => {
    const text = Buffer.from('this is not a video, only a text file with a video name\n'.repeat(50));
    const { uploadToken, tusId } = await uploadWhole(text);
    expect(tusFiles()).toContain(tusId);
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
