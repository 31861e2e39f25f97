import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.ts';
import { createFilesystemStorage, type Storage } from '../../src/server/storage/index.ts';
import { createS3Storage, S3_PART_BYTES } from '../../src/server/storage/s3.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3.ts';

/**
 * One suite, both drivers: what the site stores it reads back byte for byte, by range, measured,
 * and gone once deleted; a large file goes up streamed; keys that could leave the storage are
 * refused. The S3 driver runs against a real S3-compatible server (s3rver) started here.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'copperhub-storage-'));
let s3: TestS3Server;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function readAll(stream: NodeJS.ReadableStream | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Writes `megabytes` of random bytes to a file piece by piece (never whole in memory); answers its path and SHA-256. */
async function writeLargeFile(name: string, megabytes: number): Promise<{ file: string; sha256: string }> {
  const file = path.join(scratch, name);
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  for (let i = 0; i < megabytes; i++) {
    const piece = randomBytes(1024 * 1024);
    hash.update(piece);
    if (!out.write(piece)) await once(out, 'drain');
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { file, sha256: hash.digest('hex') };
}

const drivers: [string, () => Storage][] = [
  ['filesystem', () => createFilesystemStorage(path.join(scratch, 'files'))],
  ['s3', () => createS3Storage(readConfig(s3.env).s3!)],
];

describe.each(drivers)('the %s driver', (driver, make) => {
  let storage: Storage;
  beforeAll(() => {
    storage = make();
  });

  it('reads back what it stored, whole and by byte range, with its size', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    await storage.put(`test/${driver}/digits.txt`, bytes);
    expect(await readAll(await storage.read(`test/${driver}/digits.txt`))).toEqual(bytes);
    expect((await readAll(await storage.read(`test/${driver}/digits.txt`, { start: 3, end: 7 })))!.toString()).toBe('34567');
    expect((await readAll(await storage.read(`test/${driver}/digits.txt`, { start: 15, end: 19 })))!.toString()).toBe('fghij');
    expect(await storage.size(`test/${driver}/digits.txt`)).toBe(20);
    const info = await storage.stat(`test/${driver}/digits.txt`);
    expect(info?.size).toBe(20);
    expect(Math.abs(info!.modified.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('replaces a file stored again under the same key', async () => {
    await storage.put(`test/${driver}/again.txt`, Buffer.from('first'));
    await storage.put(`test/${driver}/again.txt`, Buffer.from('second version'));
    expect((await readAll(await storage.read(`test/${driver}/again.txt`)))!.toString()).toBe('second version');
  });

  it('answers null for a missing file, and deleting one twice is no error', async () => {
    expect(await storage.read(`test/${driver}/missing.bin`)).toBeNull();
    expect(await storage.size(`test/${driver}/missing.bin`)).toBeNull();
    expect(await storage.stat(`test/${driver}/missing.bin`)).toBeNull();
    await storage.put(`test/${driver}/doomed.bin`, Buffer.from([1, 2, 3]));
    await storage.delete(`test/${driver}/doomed.bin`);
    await storage.delete(`test/${driver}/doomed.bin`);
    expect(await storage.read(`test/${driver}/doomed.bin`)).toBeNull();
    expect(await storage.size(`test/${driver}/doomed.bin`)).toBeNull();
  });

  it('stores a 20 MB file from the disk streamed, and removes the source', async () => {
    const { file, sha256 } = await writeLargeFile(`${driver}-large.bin`, 20);
    const key = `videos/${driver}/large.mp4`;
    await storage.putFile(key, file);
    expect(existsSync(file)).toBe(false);
    expect(await storage.size(key)).toBe(20 * 1024 * 1024);
    const back = await readAll(await storage.read(key));
    expect(createHash('sha256').update(back!).digest('hex')).toBe(sha256);
    expect((await readAll(await storage.read(key, { start: 10 * 1024 * 1024, end: 10 * 1024 * 1024 + 9 })))!).toEqual(back!.subarray(10 * 1024 * 1024, 10 * 1024 * 1024 + 10));
    if (storage.driver === 's3') {
      // Sent in parts (a completed multipart upload), typed by its key, its SHA-256 recorded.
      expect(S3_PART_BYTES).toBeLessThan(20 * 1024 * 1024);
      expect(s3.events).toContainEqual({ name: 'ObjectCreated:Post', key });
      expect(s3.events).not.toContainEqual({ name: 'ObjectCreated:Put', key });
      const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
      expect(head.ContentType).toBe('video/mp4');
      expect(head.Metadata?.sha256).toBe(sha256);
      expect((await storage.describe(key))?.sha256).toBe(sha256);
    }
  });

  it('refuses keys that could leave the storage', async () => {
    for (const key of ['../outside.txt', 'images/../../etc/passwd', '/etc/passwd', 'images//x.png', '.hidden', 'a b.png']) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.read(key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.size(key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/unsafe storage key/);
    }
    expect(existsSync(path.join(scratch, 'outside.txt'))).toBe(false);
  });
});
