import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { getConfig } from '../config.ts';
import { createS3Storage, type BucketStorage } from './s3.ts';
import { assertSafeKey, type StorageBase } from './driver.ts';

export { assertSafeKey, UPLOADS_FOLDER, type ListedFile, type StorageBase, type StoredFileInfo } from './driver.ts';

/** Files on this machine's disk (or a volume every instance mounts). */
export interface FilesystemStorage extends StorageBase {
  readonly driver: 'filesystem';
  /** The file that holds `key` (throws for an unsafe key): `/files/` sends it from the disk. */
  localFile(key: string): string;
}

/** Where files (images, attachments, videos) live: the filesystem by default, an S3 bucket when configured. */
export type Storage = FilesystemStorage | BucketStorage;

/** The public URL of a stored file. */
export function fileUrl(key: string): string {
  return `/files/${key}`;
}

/** Files under `root` on the local disk (default `DATA_DIR/files`). */
export function createFilesystemStorage(root: string): FilesystemStorage {
  const full = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  const statOf = async (key: string) => {
    const file = full(key); // an unsafe key throws, as on every driver
    try {
      return await stat(file);
    } catch {
      return null;
    }
  };
  return {
    driver: 'filesystem',
    async put(key, data) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.tmp`;
      await writeFile(temp, data);
      await rename(temp, target); // readers never see half a file
    },
    async putFile(key, source) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.tmp`;
      try {
        await rename(source, temp);
      } catch {
        // Another file system: copied, then the source removed.
        await copyFile(source, temp);
        await rm(source, { force: true });
      }
      await rename(temp, target);
    },
    async read(key, range) {
      if (!(await statOf(key))) return null;
      return createReadStream(full(key), range);
    },
    async stat(key) {
      const info = await statOf(key);
      return info ? { size: info.size, modified: info.mtime } : null;
    },
    async size(key) {
      return (await statOf(key))?.size ?? null;
    },
    async delete(key) {
      await rm(full(key), { force: true });
    },
    async list(folder) {
      if (!folder.endsWith('/')) throw new Error(`not a folder: ${folder}`);
      const dir = full(folder);
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      const found = await Promise.all(
        entries
          // A file being written (`<key>.<pid>.tmp`, renamed into place when complete) is not stored yet.
          .filter((entry) => entry.isFile() && !/\.\d+\.tmp$/.test(entry.name))
          .map(async (entry) => {
            const file = path.join(entry.parentPath, entry.name);
            const info = await stat(file).catch(() => null); // removed meanwhile
            const key = `${folder}${path.relative(dir, file).split(path.sep).join('/')}`;
            return info ? { key, size: info.size, modified: info.mtime } : null;
          }),
      );
      return found.filter((file) => file !== null);
    },
    localFile: full,
  };
}

/** A stored file is larger than a job that needs it on the disk accepts. */
export class StoredFileTooLarge extends Error {
  constructor(key: string, maxBytes: number) {
    super(`stored file ${key} is larger than ${maxBytes} bytes`);
  }
}

/**
 * Runs `use` with a file on this machine's disk holding `key` (for tools that read files, not
 * streams: a zip's directory): the file itself on the filesystem driver; from a bucket, a copy
 * in a temporary folder, at most `maxBytes` (else `StoredFileTooLarge`), removed afterwards.
 * Answers null, without calling `use`, when the file is missing.
 */
export async function withLocalFile<T>(key: string, maxBytes: number, use: (file: string) => Promise<T>): Promise<T | null> {
  const storage = getStorage();
  if (storage.driver === 'filesystem') {
    const file = storage.localFile(key);
    return (await storage.size(key)) === null ? null : use(file);
  }
  const size = await storage.size(key);
  if (size === null) return null;
  if (size > maxBytes) throw new StoredFileTooLarge(key, maxBytes);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'copperhub-stored-'));
  try {
    const file = path.join(folder, path.basename(key));
    const stream = await storage.read(key);
    if (!stream) return null;
    // The size was read before: a file replaced meanwhile by a larger one is still cut off here.
    let seen = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        done(seen > maxBytes ? new StoredFileTooLarge(key, maxBytes) : null, chunk);
      },
    });
    await pipeline(stream, limit, createWriteStream(file));
    return await use(file);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A stored file's bytes, read whole (design files, renders: callers bound their size); null when it is gone. */
export async function readStoredBytes(key: string): Promise<Buffer | null> {
  const stream = await getStorage().read(key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

let storage: Storage | undefined;

/** The configured storage driver: the S3 bucket when `S3_BUCKET` is set, else `DATA_DIR/files`. */
export function getStorage(): Storage {
  if (!storage) {
    const config = getConfig();
    storage = config.s3 ? createS3Storage(config.s3) : createFilesystemStorage(path.join(config.dataDir, 'files'));
  }
  return storage;
}
