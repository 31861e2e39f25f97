import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.ts';
import { migrateFilesToBucket } from '../../src/server/storage/migrate.ts';
import { createS3Storage, type BucketStorage } from '../../src/server/storage/s3.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3.ts';

/**
 * `npm run ops -- storage:migrate`: a site's files on the disk end up in the bucket byte for byte,
 * a second run copies nothing, an object that differs from the disk is copied again, and the
 * disk keeps every file.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-migrate-'));
const root = path.join(dataDir, 'files');
let s3: TestS3Server;
let bucket: BucketStorage;
const lines: string[] = [];
const report = (line: string) => lines.push(line);

/** The files of a small site: images, a board render, and a 12 MB video (copied in parts). */
const files: Record<string, Buffer> = {
  'images/ab/ab12.webp': randomBytes(30_000),
  'images/cd/cd34.webp': randomBytes(5_000),
  'boards/7/top.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  'attachments/ef/ef56.zip': randomBytes(200_000),
  'videos/0123abcd/v1.mp4': randomBytes(12 * 1024 * 1024),
};
const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function objectBytes(key: string): Promise<Buffer> {
  const answer = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = createS3Storage(readConfig(s3.env).s3!);
  for (const [key, bytes] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
    writeFileSync(path.join(root, key), bytes);
  }
  // a write in progress of the filesystem driver: not a file to copy
  writeFileSync(path.join(root, 'images/ab/ab99.webp.4242.tmp'), 'half');
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('storage:migrate', () => {
  it('lists what it would copy in a dry run and copies nothing', async () => {
    const summary = await migrateFilesToBucket({ root, bucket, dryRun: true, report });
    expect(summary).toMatchObject({ files: 5, copied: 5, skipped: 0, failed: 0 });
    expect(lines.filter((line) => line.startsWith('would copy'))).toHaveLength(5);
    for (const key of Object.keys(files)) expect(await bucket.size(key)).toBeNull();
  });

  it('copies every file to the bucket with the same bytes, and keeps them on the disk', async () => {
    const summary = await migrateFilesToBucket({ root, bucket, report });
    expect(summary).toEqual({ files: 5, copied: 5, skipped: 0, failed: 0, bytes: Object.values(files).reduce((sum, bytes) => sum + bytes.length, 0) });
    for (const [key, bytes] of Object.entries(files)) {
      expect(sha256(await objectBytes(key)), key).toBe(sha256(bytes));
      const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
      expect(head.Metadata?.sha256).toBe(sha256(bytes));
      expect(sha256(readFileSync(path.join(root, key)))).toBe(sha256(bytes));
    }
    expect(await bucket.size('images/ab/ab99.webp.4242.tmp')).toBeNull();
    // the video went up in parts
    expect(s3.events).toContainEqual({ name: 'ObjectCreated:Post', key: 'videos/0123abcd/v1.mp4' });
  });

  it('skips everything on a second run', async () => {
    const before = s3.events.length;
    const summary = await migrateFilesToBucket({ root, bucket, report });
    expect(summary).toMatchObject({ files: 5, copied: 0, skipped: 5, failed: 0, bytes: 0 });
    expect(s3.events.length).toBe(before);
  });

  it('copies again an object cut short or with other bytes of the same size', async () => {
    const cut = 'attachments/ef/ef56.zip';
    const changed = 'images/cd/cd34.webp';
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: cut, Body: files[cut]!.subarray(0, 1000) }));
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: changed, Body: randomBytes(files[changed]!.length) }));
    lines.length = 0;
    const summary = await migrateFilesToBucket({ root, bucket, report });
    expect(summary).toMatchObject({ files: 5, copied: 2, skipped: 3, failed: 0 });
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^copied attachments\/ef\/ef56\.zip .*differs/), expect.stringMatching(/^copied images\/cd\/cd34\.webp/)]));
    expect(sha256(await objectBytes(cut))).toBe(sha256(files[cut]!));
    expect(sha256(await objectBytes(changed))).toBe(sha256(files[changed]!));
  });

  it('runs as `npm run ops -- storage:migrate`, with its summary and exit code', async () => {
    writeFileSync(path.join(root, 'images/ab/ab77.webp'), randomBytes(2_000));
    const run = promisify(execFile);
    const env = { ...process.env, DATA_DIR: dataDir, ...s3.env };
    const { stdout } = await run(process.execPath, ['scripts/ops.ts', 'storage:migrate'], { env });
    expect(stdout).toContain('copied images/ab/ab77.webp');
    expect(stdout).toMatch(/6 files: 1 copied \(2\.0 KB\), 5 already in the bucket, 0 failed/);
    // without a bucket configured it refuses, naming what to set
    const refused = await run(process.execPath, ['scripts/ops.ts', 'storage:migrate'], { env: { ...process.env, DATA_DIR: dataDir, S3_BUCKET: '' } }).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('set S3_BUCKET') });
    const unknown = await run(process.execPath, ['scripts/ops.ts', 'storage:nothing']).catch((error: { code: number; stderr: string }) => error);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "storage:nothing"') });
  });
});
