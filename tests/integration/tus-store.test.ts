import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { copyTusUpload, IncompleteUpload, PART_BYTES, removeTusUpload, tusStore } from '../../src/server/storage/tus-store.ts';
import { getStorage } from '../../src/server/storage/index.ts';

/**
 * Uploads in progress as parts in storage, as two web instances leave them when a client sent a
 * chunk through one, gave up on it and sent it again through the other: the upload stands where
 * its parts join up from byte 0, and the worker's copy holds every byte once, in order.
 */
const database = useTestDatabase();

const bytesOf = (size: number) => randomBytes(size);
const streamOf = (bytes: Buffer, pieces = 7) => Readable.from(Array.from({ length: pieces }, (_, i) => bytes.subarray(Math.floor((i * bytes.length) / pieces), Math.floor(((i + 1) * bytes.length) / pieces))));

async function begin(size: number): Promise<string> {
  const id = randomBytes(16).toString('hex');
  await tusStore().create(new Upload({ id, size, offset: 0 }));
  return id;
}

describe('uploads in progress, kept as parts in storage', () => {
  it('stands where the parts join up, whichever instance wrote them and however often', async () => {
    const video = bytesOf(300_000);
    const id = await begin(video.length);
    const store = tusStore();
    // one instance took the first 100 kB; the client, unsure, sent 0–150 kB again through the other
    expect(await store.write(streamOf(video.subarray(0, 100_000)), id, 0)).toBe(100_000);
    expect(await store.write(streamOf(video.subarray(0, 150_000)), id, 0)).toBe(150_000);
    expect((await store.getUpload(id)).offset).toBe(150_000);
    // a stray chunk past a gap does not move where the upload stands
    await store.write(streamOf(video.subarray(200_000, 250_000)), id, 200_000);
    expect((await store.getUpload(id)).offset).toBe(150_000);
    // the rest, from where it stands
    expect(await store.write(streamOf(video.subarray(150_000)), id, 150_000)).toBe(video.length);
    expect((await store.getUpload(id)).offset).toBe(video.length);

    const copy = path.join(database.dataDir(), 'copy.mp4');
    expect(await copyTusUpload(id, copy, video.length)).toBe(video.length);
    expect((await readFile(copy)).equals(video)).toBe(true);
    // more than a job takes is refused
    await expect(copyTusUpload(id, copy, video.length - 1)).rejects.toBeInstanceOf(IncompleteUpload);

    await removeTusUpload(id);
    expect(await getStorage().list(`uploads/${id}/`)).toEqual([]);
    await expect(store.getUpload(id)).rejects.toMatchObject({ status_code: 404 });
  });

  it('stores a long PATCH in parts as it arrives, and an upload with bytes missing is not copied', async () => {
    const video = bytesOf(PART_BYTES + 1234);
    const id = await begin(video.length + 10);
    expect(await tusStore().write(streamOf(video, 40), id, 0)).toBe(video.length);
    const parts = (await getStorage().list(`uploads/${id}/`)).filter((file) => file.key.endsWith('.part'));
    expect(parts.map((file) => file.size).sort((a, b) => a - b)).toEqual([1234, PART_BYTES]);
    await expect(copyTusUpload(id, path.join(database.dataDir(), 'short.mp4'), PART_BYTES * 2)).rejects.toBeInstanceOf(IncompleteUpload);
    await removeTusUpload(id);
  });

  it('keeps what arrived of a body that broke off', async () => {
    const video = bytesOf(50_000);
    const id = await begin(video.length);
    const broken = new Readable({
      read() {
        this.push(video.subarray(0, 20_000));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(tusStore().write(broken, id, 0)).rejects.toThrow('connection reset');
    expect((await tusStore().getUpload(id)).offset).toBe(20_000);
    await removeTusUpload(id);
  });
});
