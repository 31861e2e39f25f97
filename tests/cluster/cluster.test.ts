import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_FIXTURES, zipBoard } from '../helpers/board-fixtures.ts';
import { writeH264Mp4 } from '../helpers/videos.ts';
import type { Video, VideoPlayback, VideoUploadTicket } from '../../src/lib/contract/schemas/videos.ts';
import { multipart, POSTGRES_SERVERS, request, startCluster, type Answer, type Cluster } from './harness.ts';

/**
 * The site as a deployment of several processes (issue 27): two web instances and two workers on
 * a PostgreSQL server from Debian and an S3-compatible bucket, nginx in front with TLS, round
 * robin, no sticky sessions. Every request goes through nginx and lands where nginx sends it.
 */
let cluster: Cluster;

const site = () => cluster.nginx;
const requestId = (answer: Answer) => String(answer.headers['x-request-id']);
const tokenOf = (answer: Answer) => /(?:^|\s)token=([^;]+)/.exec(([] as string[]).concat(answer.headers['set-cookie'] ?? []).join('\n'))?.[1];

/** Signs up through nginx and opens the returned sign-in link: the session cookie. */
async function signUp(email: string, nickname: string, localAddress = '127.0.0.1'): Promise<string> {
  const registered = await request(site(), 'POST', '/sso/api/register', { body: { email, password: 'copper-pour-77', nickname }, localAddress });
  expect(registered.json().retCode, registered.body).toBe(0);
  const location = new URL(registered.json<{ result: { location: string } }>().result.location);
  const opened = await request(site(), 'GET', location.pathname + location.search, { localAddress });
  const token = tokenOf(opened);
  expect(token, opened.body).toBeTruthy();
  return `token=${token}`;
}

/** Requests `pathname` until both instances have answered it: the answers by instance. */
async function fromBoth(pathname: string, options: Parameters<typeof request>[3] = {}): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  for (let i = 0; i < 10 && answers.size < 2; i++) {
    const answer = await request(site(), 'GET', pathname, options);
    const instance = cluster.servedBy(requestId(answer)) ?? (await settle(() => cluster.servedBy(requestId(answer))));
    if (instance && !answers.has(instance)) answers.set(instance, answer);
  }
  expect([...answers.keys()].sort()).toEqual(['web-a', 'web-b']);
  return answers;
}

/** Sends a tus PATCH of `bytes` from `offset`, announcing `announced` bytes but cutting the connection after sending these. */
function cutPatch(location: string, offset: number, bytes: Buffer, announced: number): Promise<void> {
  const url = new URL(location, site().origin);
  return new Promise((resolve) => {
    const req = https.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'PATCH',
      ca: site().ca,
      agent: false,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(announced) },
    });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    // What was sent has had time to reach the instance when the connection drops.
    req.write(bytes, () => setTimeout(() => (req.destroy(), resolve()), 500));
  });
}

/** The keys the bucket holds under `prefix`. */
async function bucketKeys(prefix: string): Promise<string[]> {
  const listed = await cluster.bucket.client.send(new ListObjectsV2Command({ Bucket: cluster.bucket.bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((item) => item.Key!);
}

/** Waits for the instance's log line (written as the answer ends). */
async function settle<T>(read: () => T | null): Promise<T | null> {
  for (let i = 0; i < 50; i++) {
    const value = read();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

describe.each(POSTGRES_SERVERS.map((server) => server.version))('two web instances behind nginx, on PostgreSQL %i', (postgresVersion) => {
  // Migrated from an empty database by the instances themselves as they start.
  beforeAll(async () => {
    cluster = await startCluster({ postgresVersion });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('share members: a session started through one is valid on both', async () => {
    const cookie = await signUp('cluster-member@example.com', 'Cluster Member');
    const answers = await fromBoth('/api/user/getUserInfo', { cookie });
    for (const [instance, answer] of answers) expect(answer.json<{ result: { nickname: string } }>().result.nickname, instance).toBe('Cluster Member');
  });

  it('show a comment made through one instance at once to a guest served by the other', async () => {
    const cookie = await signUp('cluster-author@example.com', 'Cluster Author');
    const created = await request(site(), 'POST', '/api/release/saveProject', {
      cookie,
      body: { title: 'Cluster clock', summary: 'A clock made to be seen from two instances.', description: 'Seen from two instances.', tags: [], licence: 'CERN-OHL-S-2.0', publish: true },
    });
    expect(created.json().retCode, created.body).toBe(0);
    const id = created.json<{ result: { id: string } }>().result.id;
    // Both instances keep the guest page.
    const before = await fromBoth(`/d-${id}`);
    for (const answer of before.values()) expect(answer.body).toContain('Cluster clock');
    const commented = await request(site(), 'POST', '/api/comment/submit', { cookie, body: { id, content: 'Seen on both instances, no waiting.' } });
    expect(commented.json().retCode, commented.body).toBe(0);
    // The instance that took the comment purged its page and told the other (NOTIFY).
    const after = await fromBoth(`/d-${id}`);
    for (const [instance, answer] of after) expect(answer.body, instance).toContain('Seen on both instances, no waiting.');
  });

  it('count sign-in failures once for both instances, by the visitor nginx saw: another visitor still gets in, a forged address changes nothing', async () => {
    const email = 'cluster-guarded@example.com';
    await signUp(email, 'Cluster Guarded', '127.0.0.3');
    const attempt = (password: string, localAddress: string, headers: Record<string, string> = {}) =>
      request(site(), 'POST', '/sso/api/login', { body: { email, password, redirect: '/newest' }, localAddress, headers });
    const served = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const failed = await attempt('wrong-guess-00', '127.0.0.2');
      expect(failed.json().errorKey).toBe('invalid_credentials');
      served.add((await settle(() => cluster.servedBy(requestId(failed)))) ?? '');
    }
    // The attempts went to both instances, and were counted together.
    expect([...served].sort()).toEqual(['web-a', 'web-b']);
    expect((await attempt('copper-pour-77', '127.0.0.2')).json().errorKey).toBe('rate_limited');
    // Claiming to be someone else (nginx appends the address it saw after this) is no way round it.
    expect((await attempt('copper-pour-77', '127.0.0.2', { 'x-forwarded-for': '127.0.0.3' })).json().errorKey).toBe('rate_limited');
    // The member, from their own address, signs in.
    expect((await attempt('copper-pour-77', '127.0.0.3')).json().retCode).toBe(0);
  });

  it('publish a project with a Gerber zip and a BOM: a worker renders the board, and the guest page on both instances shows it once ready', async () => {
    const cookie = await signUp('cluster-maker@example.com', 'Cluster Maker');
    const upload = async (name: string, bytes: Buffer) => {
      const answer = await request(site(), 'POST', '/api/upload', { cookie, form: await multipart({ purpose: 'attachment', file: { name, bytes } }) });
      expect(answer.json().retCode, answer.body).toBe(0);
      return answer.json<{ result: { id: string } }>().result.id;
    };
    const attachments = [
      await upload('adapter.zip', Buffer.from(await zipBoard('kicad-rrf', 'fab', (name) => /F_Cu|B_Cu|Edge_Cuts|F_Mask|PTH\.drl/.test(name)))),
      await upload('1-click-bom.tsv', readFileSync(path.join(BOARD_FIXTURES, 'bom/rrf-1-click-bom.tsv'))),
    ];
    const saved = await request(site(), 'POST', '/api/release/saveProject', {
      cookie,
      body: { title: 'Cluster adapter', summary: 'A board rendered by a worker.', description: 'An adapter.', tags: [], licence: 'CC-BY-4.0', attachments, publish: true },
    });
    expect(saved.json().retCode, saved.body).toBe(0);
    const id = saved.json<{ result: { id: string } }>().result.id;
    // Guests on both instances see the project before its board is ready (and their pages are kept).
    for (const answer of (await fromBoth(`/d-${id}`)).values()) expect(answer.body).toContain('Cluster adapter');
    let board: { status: string; preview: string | null } | undefined;
    for (const deadline = Date.now() + 90_000; board?.status !== 'ready' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      board = (await request(site(), 'GET', `/api/eda/detail?id=${id}`)).json<{ result: { boards: { status: string; preview: string | null }[] } }>().result.boards[0];
    }
    expect(board?.status).toBe('ready');
    // Only the workers run jobs: the instances started none (JOB_WORKERS=0).
    for (const worker of cluster.workers) expect(worker.lines.some((line) => line.includes('job workers started'))).toBe(true);
    for (const instance of cluster.instances) expect(instance.lines.some((line) => line.includes('job workers started'))).toBe(false);
    const preview = board!.preview!;
    expect(preview).toMatch(/^\/files\/boards\//);
    // The worker's purge reached both instances: their guest pages show the board.
    for (const [instance, answer] of await fromBoth(`/d-${id}`)) expect(answer.body, instance).toContain(preview);
    const image = await request(site(), 'GET', preview);
    expect(image.status).toBe(200);
  });

  it('take a video in tus chunks that alternate between the instances, resume it after a cut connection, process it on a worker and play it from the bucket', async () => {
    const cookie = await signUp('cluster-filmmaker@example.com', 'Cluster Filmmaker');
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'copperhub-cluster-video-'));
    const clip = readFileSync(await writeH264Mp4(scratch, { seconds: 3 }));
    rmSync(scratch, { recursive: true, force: true });
    const ticket = await request(site(), 'POST', '/api/video/getVideoToken', { cookie, body: { name: 'soldering.mp4', size: clip.length, mime: 'video/mp4' } });
    const { uploadUrl, uploadToken } = ticket.json<{ result: VideoUploadTicket }>().result;
    expect(uploadUrl).toBe(`${site().origin}/api/video/upload`);
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await request(site(), 'POST', '/api/video/upload', {
      headers: { ...tus, 'content-length': '0', 'upload-length': String(clip.length), 'upload-metadata': `uploadToken ${b64(uploadToken)},filetype ${b64('video/mp4')}` },
    });
    expect(created.status, created.body).toBe(201);
    const location = new URL(String(created.headers.location), site().origin).pathname;
    const tusId = location.slice(location.lastIndexOf('/') + 1);
    const where = async () => Number((await request(site(), 'HEAD', location, { headers: tus })).headers['upload-offset']);

    const chunk = Math.ceil(clip.length / 6);
    const patchedBy = new Set<string>();
    let offset = 0;
    for (let n = 0; offset < clip.length; n++) {
      if (n === 2) {
        // The connection drops halfway through a chunk; the client asks where the upload stands.
        const before = offset;
        await cutPatch(location, offset, clip.subarray(offset, offset + Math.floor(chunk / 2)), Math.min(chunk, clip.length - offset));
        for (const deadline = Date.now() + 5000; offset <= before && Date.now() < deadline; ) {
          offset = await where();
          if (offset <= before) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // What arrived before the cut was kept, wherever it landed.
        expect(offset).toBe(before + Math.floor(chunk / 2));
        continue;
      }
      const part = clip.subarray(offset, offset + chunk);
      const patched = await request(site(), 'PATCH', location, { form: { bytes: part, contentType: 'application/offset+octet-stream' }, headers: { ...tus, 'upload-offset': String(offset) } });
      expect(patched.status, patched.body).toBe(204);
      patchedBy.add((await settle(() => cluster.servedBy(requestId(patched)))) ?? '');
      offset += part.length;
      expect(Number(patched.headers['upload-offset'])).toBe(offset);
    }
    // nginx sent the chunks to both instances: each took bytes the other had begun.
    expect([...patchedBy].sort()).toEqual(['web-a', 'web-b']);
    expect(await bucketKeys(`uploads/${tusId}/`)).toContain(`uploads/${tusId}/info.json`);

    const saved = await request(site(), 'POST', '/api/video/saveVideo', { cookie, body: { uploadToken, title: 'Soldering across two instances' } });
    expect(saved.json().retCode, saved.body).toBe(0);
    const video = saved.json<{ result: Video }>().result;
    let listed: Video | undefined;
    for (const deadline = Date.now() + 120_000; listed?.status !== 'ready' && listed?.status !== 'failed' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const list = await request(site(), 'POST', '/api/video/list', { cookie, body: { url: video.owner.url, page: 1, pageSize: 24 } });
      listed = list.json<{ result: { list: Video[] } }>().result.list.find((item) => item.id === video.id);
    }
    expect(listed).toMatchObject({ status: 'ready' });
    expect(listed!.duration).toBeCloseTo(3, 0);
    // A worker, with a data folder of its own, did it: the instances run no jobs.
    expect(cluster.workers.some((worker) => worker.lines.some((line) => line.includes('"queue":"video.process"') && line.includes('"msg":"job done"')))).toBe(true);
    // Its parts left the bucket with the upload.
    expect(await bucketKeys(`uploads/${tusId}/`)).toEqual([]);

    const playback = (await request(site(), 'POST', '/api/video/getVideoUrl', { cookie, body: { id: video.id } })).json<{ result: VideoPlayback }>().result;
    const redirect = await request(site(), 'GET', playback.url);
    expect(redirect.status).toBe(302);
    const presigned = String(redirect.headers.location);
    expect(presigned.startsWith(`${cluster.bucket.endpoint}/${cluster.bucket.bucket}/videos/`)).toBe(true);
    // What the player does next: ask the bucket for ranges.
    const ranged = await fetch(presigned, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).subarray(4, 8).toString()).toBe('ftyp');
  });

  it('finish a board on the other worker when the one rendering it is killed', async () => {
    const cookie = await signUp('cluster-survivor@example.com', 'Cluster Survivor');
    // The EAGLE board with heavy copper pours: the slowest fixture, so the kill lands mid-render.
    const upload = await request(site(), 'POST', '/api/upload', { cookie, form: await multipart({ purpose: 'attachment', file: { name: 'snapper.zip', bytes: Buffer.from(await zipBoard('eagle-snapper')) } }) });
    expect(upload.json().retCode, upload.body).toBe(0);
    const saved = await request(site(), 'POST', '/api/release/saveProject', {
      cookie,
      body: { title: 'Cluster snapper', summary: 'A board whose worker dies.', description: 'GNSS snapshots.', tags: [], licence: 'Solderpad-2.1', attachments: [upload.json<{ result: { id: string } }>().result.id], publish: true },
    });
    expect(saved.json().retCode, saved.body).toBe(0);
    const id = saved.json<{ result: { id: string } }>().result.id;
    const db = new pg.Client({ connectionString: cluster.postgres.url });
    await db.connect();
    try {
      // The job of this project's board, and the worker that said it took it.
      let taker: (typeof cluster.workers)[number] | undefined;
      for (const deadline = Date.now() + 60_000; !taker && Date.now() < deadline; ) {
        const { rows } = await db.query<{ id: string }>(
          `SELECT job.id FROM pgboss.job job JOIN boards b ON b.id = (job.data->>'boardId')::int JOIN projects p ON p.id = b.project_id
            WHERE job.name = 'eda.board' AND p.public_id = $1 AND job.state = 'active'`,
          [id],
        );
        const jobId = rows[0]?.id;
        taker = jobId ? cluster.workers.find((worker) => worker.lines.some((line) => line.includes(jobId) && line.includes('"msg":"job started"'))) : undefined;
        if (!taker) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(taker).toBeTruthy();
      taker!.kill('SIGKILL');
      await new Promise((resolve) => (taker!.child.exitCode !== null || taker!.child.signalCode !== null ? resolve(null) : taker!.child.once('exit', resolve)));
      let board: { status: string; layerCount: number | null } | undefined;
      for (const deadline = Date.now() + 120_000; board?.status !== 'ready' && board?.status !== 'failed' && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        board = (await request(site(), 'GET', `/api/eda/detail?id=${id}`)).json<{ result: { boards: { status: string; layerCount: number | null }[] } }>().result.boards[0];
      }
      expect(board).toMatchObject({ status: 'ready' });
      const survivor = cluster.workers.find((worker) => worker !== taker)!;
      expect(survivor.lines.some((line) => line.includes('"queue":"eda.board"') && line.includes('"msg":"job done"'))).toBe(true);
      const { rows } = await db.query<{ attempts: number }>('SELECT b.attempts FROM boards b JOIN projects p ON p.id = b.project_id WHERE p.public_id = $1', [id]);
      // Started by the killed worker, done again from the start by the other.
      expect(rows[0]?.attempts).toBe(2);
    } finally {
      await db.end();
    }
  });

  it('answer 503 with the envelope while PostgreSQL is down, say why in /readyz, serve again within 10 s of its return, and hear each other’s purges at once', async () => {
    const cookie = await signUp('cluster-restart@example.com', 'Cluster Restart');
    const created = await request(site(), 'POST', '/api/release/saveProject', {
      cookie,
      body: { title: 'Restart clock', summary: 'Seen across a restart of the database.', description: 'Restarts.', tags: [], licence: 'CERN-OHL-S-2.0', publish: true },
    });
    const id = created.json<{ result: { id: string } }>().result.id;
    cluster.postgres.stop();
    try {
      for (const [instance, answer] of await fromBoth('/api/user/getUserInfo', { cookie })) {
        expect(answer.status, `${instance}: ${answer.body.slice(0, 300)}`).toBe(503);
        expect(answer.json(), instance).toMatchObject({ retCode: 503, errorKey: 'database_unavailable' });
        expect(answer.headers['retry-after'], instance).toBeTruthy();
      }
      // Pages too: a pause to come back after, in the visitor's language, for guests and members alike.
      for (const options of [{}, { cookie }]) {
        for (const [instance, page] of await fromBoth(`/d-${id}`, options)) {
          expect(page.status, instance).toBe(503);
          expect(page.headers['retry-after'], instance).toBeTruthy();
          expect(page.headers['content-type'], instance).toContain('text/html');
          expect(page.body, instance).toContain('The site cannot reach its database just now.');
        }
      }
      for (const instance of cluster.instances) {
        const ready = await fetch(`http://127.0.0.1:${instance.port}/readyz`);
        expect(ready.status, instance.name).toBe(503);
        expect((await ready.json()) as { status: string; database: string }, instance.name).toMatchObject({ status: 'not_ready', database: 'failed' });
      }
    } finally {
      cluster.postgres.start();
    }
    const back = Date.now();
    // Both serve again without a restart of their own.
    const serving = new Set<string>();
    while (serving.size < 2 && Date.now() - back < 10_000) {
      const answer = await request(site(), 'GET', '/api/user/getUserInfo', { cookie });
      if (answer.status === 200) serving.add((await settle(() => cluster.servedBy(requestId(answer)))) ?? '');
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([...serving].sort()).toEqual(['web-a', 'web-b']);
    expect(Date.now() - back).toBeLessThan(10_000);
    // Pages cached right after the return, then a comment through one instance: the other's guests see it.
    await fromBoth(`/d-${id}`);
    const commented = await request(site(), 'POST', '/api/comment/submit', { cookie, body: { id, content: 'Written just after the database came back.' } });
    expect(commented.json().retCode, commented.body).toBe(0);
    for (const [instance, answer] of await fromBoth(`/d-${id}`)) expect(answer.body, instance).toContain('Written just after the database came back.');
  });

  it('answer 503 with the envelope for uploads and file reads while the bucket is out of reach, serve pages without files, and recover by themselves', async () => {
    const cookie = await signUp('cluster-bucket@example.com', 'Cluster Bucket');
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a7' } }).png().toBuffer();
    const send = async () => request(site(), 'POST', '/api/upload', { cookie, form: await multipart({ purpose: 'image', file: { name: 'board.png', bytes: png } }) });
    const stored = await send();
    expect(stored.json().retCode, stored.body).toBe(0);
    const url = stored.json<{ result: { url: string } }>().result.url;
    await cluster.bucket.pause();
    try {
      const refused = await send();
      expect(refused.status, refused.body).toBe(503);
      expect(refused.json()).toMatchObject({ retCode: 503, errorKey: 'storage_unavailable' });
      expect(refused.headers['retry-after']).toBeTruthy();
      for (const [instance, read] of await fromBoth(url)) {
        expect(read.status, instance).toBe(503);
        expect(read.json(), instance).toMatchObject({ retCode: 503, errorKey: 'storage_unavailable' });
      }
      // A page without files still serves, on both instances.
      for (const [instance, answer] of await fromBoth('/newest')) expect(answer.status, instance).toBe(200);
    } finally {
      await cluster.bucket.resume();
    }
    expect((await send()).json().retCode).toBe(0);
    expect((await request(site(), 'GET', url)).status).toBe(200);
  });

  // Last: it leaves one instance.
  it('go on through the other instance when one is killed under a write load, and lose no acknowledged write', async () => {
    const cookie = await signUp('cluster-writer@example.com', 'Cluster Writer');
    const acknowledged: string[] = [];
    const failed: number[] = [];
    let sent = 0;
    let killedAt = -1;
    const write = async () => {
      for (;;) {
        const n = sent++;
        if (n >= 40) return;
        const answer = await request(site(), 'POST', '/api/release/saveProject', {
          cookie,
          body: { title: `Load clock ${n}`, summary: 'Written while an instance dies.', description: 'Under load.', tags: [], licence: 'CERN-OHL-S-2.0', publish: true },
        }).catch(() => null);
        if (answer?.status === 200 && answer.json().retCode === 0) acknowledged.push(answer.json<{ result: { id: string } }>().result.id);
        else failed.push(n);
        if (acknowledged.length === 12 && killedAt < 0) {
          killedAt = n;
          cluster.instances[0]!.kill('SIGKILL');
        }
      }
    };
    await Promise.all([write(), write(), write(), write()]);
    expect(killedAt).toBeGreaterThan(0);
    // It is gone (npm start ends with its server), not merely slow.
    const killed = cluster.instances[0]!.child;
    await new Promise((resolve) => (killed.exitCode !== null || killed.signalCode !== null ? resolve(null) : killed.once('exit', resolve)));
    // What was on its way to the killed instance (in flight, or sent on a connection nginx still
    // held to it) answers 502: nginx does not send a POST again, since it may have been applied.
    // Everything after that goes to the other instance.
    expect(failed.length).toBeLessThanOrEqual(8);
    expect(failed.every((n) => n < killedAt + 10)).toBe(true);
    expect(acknowledged.length).toBe(40 - failed.length);
    for (const id of acknowledged) {
      const detail = await request(site(), 'GET', `/api/project/detail?id=${id}`);
      expect(detail.json().retCode, id).toBe(0);
    }
  });
});

