/**
 * Where video uploads in progress live: in the site's storage (the shared folder or the bucket),
 * under `uploads/<tus id>/`, so a chunk may reach any web instance and any worker reads the
 * finished upload, whatever its own `DATA_DIR`. `/files/` never serves them.
 *
 * An upload is its record (`info.json`: id, declared size, metadata, when it began) and its bytes
 * as parts, one object per stretch of a PATCH (`<offset>-<random>.part`, at most `PART_BYTES`):
 * plain objects, which every S3-compatible server keeps, where tus's own S3 store needs
 * multipart uploads resumed with `ListParts`. Where an upload stands is the end of the parts that
 * join up from byte 0. A part's name is never reused, so two instances that both took a chunk (a
 * client that gave up on one and sent the chunk again through the other) leave two parts over the
 * same bytes, never one cut short: those bytes are the same, and the walk takes each byte once.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { DataStore, ERRORS, Upload } from '@tus/server';
import { getConfig } from '../config.ts';
import { getStorage, readStoredBytes, UPLOADS_FOLDER, type ListedFile } from './index.ts';

/** A tus upload not finished within this time is forgotten (and its bytes deleted by housekeeping). */
export const TUS_UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/**
 * The largest part: a PATCH is stored as it arrives in parts of this size, so an instance holds at
 * most one part of it on its disk, and what arrived before a cut connection is kept. The browser
 * sends chunks of 8 MB (`VIDEO_CHUNK_BYTES`): one part each.
 */
export const PART_BYTES = 16 * 1024 * 1024;

const PART_NAME = /^(\d{13})-[0-9a-f]{8}\.part$/;

/** tus's ids are its own random hex; anything else never names a storage key. */
function folderOf(id: string): string {
  if (!/^[a-zA-Z0-9_-]{8,128}$/.test(id)) throw ERRORS.FILE_NOT_FOUND;
  return `${UPLOADS_FOLDER}${id}/`;
}

/** A stretch of an upload's bytes to read: `length` bytes of part `key` from byte `skip` of it. */
interface Piece {
  key: string;
  skip: number;
  length: number;
}

/** The parts of an upload in the order of the bytes, each byte once, up to the first gap. */
function joinParts(files: ListedFile[]): { offset: number; pieces: Piece[] } {
  const parts = files
    .flatMap((file) => {
      const match = PART_NAME.exec(path.posix.basename(file.key));
      return match ? [{ key: file.key, start: Number(match[1]), size: file.size }] : [];
    })
    .sort((a, b) => a.start - b.start || b.size - a.size);
  let offset = 0;
  const pieces: Piece[] = [];
  for (const part of parts) {
    if (part.start > offset) break; // a gap: bytes after it are not where the upload stands
    const end = part.start + part.size;
    if (end <= offset) continue;
    pieces.push({ key: part.key, skip: offset - part.start, length: end - offset });
    offset = end;
  }
  return { offset, pieces };
}

interface UploadRecord {
  id: string;
  size?: number;
  metadata?: Record<string, string | null>;
  creation_date?: string;
}

/** The record of upload `id`; tus's FILE_NOT_FOUND when there is none. */
async function readRecord(id: string): Promise<UploadRecord> {
  const bytes = await readStoredBytes(`${folderOf(id)}info.json`);
  if (!bytes) throw ERRORS.FILE_NOT_FOUND;
  return JSON.parse(bytes.toString('utf8')) as UploadRecord;
}

class StoredUploads extends DataStore {
  constructor() {
    super();
    // No deferred length: the endpoint refuses uploads that do not declare their size.
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const record: UploadRecord = { id: upload.id, size: upload.size, metadata: upload.metadata, creation_date: upload.creation_date ?? new Date().toISOString() };
    await getStorage().put(`${folderOf(upload.id)}info.json`, Buffer.from(JSON.stringify(record)));
    upload.creation_date = record.creation_date;
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const record = await readRecord(id);
    const { offset } = joinParts(await getStorage().list(folderOf(id)));
    return new Upload({ id, size: record.size, offset, metadata: record.metadata, creation_date: record.creation_date });
  }

  /**
   * Stores the PATCH body from `offset` as parts of at most `PART_BYTES`, each first written to
   * this machine's disk (a part is put whole, with its length known). A body cut short keeps what
   * arrived: the part in hand is stored before the error goes on, and the client resumes after it.
   */
  override async write(body: Readable, id: string, offset: number): Promise<number> {
    const folder = folderOf(id);
    const incoming = path.join(getConfig().dataDir, 'uploads', 'incoming');
    await mkdir(incoming, { recursive: true });
    let part: { file: string; out: WriteStream; start: number; bytes: number } | null = null;
    let at = offset;
    const store = async () => {
      if (!part) return;
      const { file, out, start, bytes } = part;
      part = null;
      out.end();
      await finished(out);
      if (bytes === 0) return rm(file, { force: true });
      const name = `${String(start).padStart(13, '0')}-${randomBytes(4).toString('hex')}.part`;
      // putFile moves (or copies and removes) the file; a failed put leaves it here to remove.
      await getStorage()
        .putFile(`${folder}${name}`, file)
        .finally(() => rm(file, { force: true }));
    };
    try {
      for await (const chunk of body) {
        let bytes = chunk as Buffer;
        while (bytes.length > 0) {
          if (!part) {
            const file = path.join(incoming, `${id}-${randomBytes(6).toString('hex')}`);
            part = { file, out: createWriteStream(file), start: at, bytes: 0 };
          }
          const piece = bytes.subarray(0, PART_BYTES - part.bytes);
          if (!part.out.write(piece)) await once(part.out, 'drain');
          part.bytes += piece.length;
          at += piece.length;
          bytes = bytes.subarray(piece.length);
          if (part.bytes === PART_BYTES) await store();
        }
      }
    } catch (error) {
      await store().catch(() => undefined);
      throw error;
    }
    await store();
    return at;
  }

  override async remove(id: string): Promise<void> {
    const storage = getStorage();
    const files = await storage.list(folderOf(id));
    // The record last: an upload without it is already gone for tus.
    const record = files.filter((file) => file.key.endsWith('/info.json'));
    await Promise.all(files.filter((file) => !record.includes(file)).map((file) => storage.delete(file.key)));
    await Promise.all(record.map((file) => storage.delete(file.key)));
    // A folder on the disk stays behind its files (a bucket has none): removed once empty.
    if (storage.driver === 'filesystem') await rmdir(storage.localFile(folderOf(id))).catch(() => undefined);
  }

  override async declareUploadLength(): Promise<void> {
    throw ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION;
  }

  /**
   * Removes the uploads begun more than the expiry ago that never got all their bytes (the
   * finished ones belong to a video and go with its job), and parts left without a record (a
   * chunk that landed as its upload was removed).
   */
  override async deleteExpired(): Promise<number> {
    const before = Date.now() - this.getExpiration();
    const byUpload = Map.groupBy(await getStorage().list(UPLOADS_FOLDER), (file) => file.key.slice(UPLOADS_FOLDER.length).split('/')[0]!);
    let removed = 0;
    for (const [id, files] of byUpload) {
      const record = files.find((file) => file.key.endsWith('/info.json'));
      if (record ? record.modified.getTime() >= before : files.some((file) => file.modified.getTime() >= before)) continue;
      const size = record ? (await readRecord(id).catch(() => null))?.size : undefined;
      if (size !== undefined && joinParts(files).offset >= size) continue;
      await this.remove(id).catch(() => undefined);
      removed += 1;
    }
    return removed;
  }

  override getExpiration(): number {
    return TUS_UPLOAD_EXPIRY_MS;
  }
}

let store: StoredUploads | undefined;

/** The store of tus uploads in progress. */
export function tusStore(): DataStore {
  store ??= new StoredUploads();
  return store;
}

/** Removes the bytes and the record of a tus upload (used, refused or abandoned). */
export async function removeTusUpload(id: string): Promise<void> {
  await tusStore().remove(id);
}

/** A finished upload is not there whole: parts missing, or more than the job takes. */
export class IncompleteUpload extends Error {}

/**
 * Writes every byte of finished upload `id` to `file` on this machine's disk (tools read files, not
 * parts), at most `maxBytes`: the worker's copy, wherever the upload arrived.
 */
export async function copyTusUpload(id: string, file: string, maxBytes: number): Promise<number> {
  const storage = getStorage();
  const folder = folderOf(id);
  const [record, files] = await Promise.all([readRecord(id).catch(() => null), storage.list(folder)]);
  const { offset, pieces } = joinParts(files);
  if (!record || record.size === undefined || offset < record.size) throw new IncompleteUpload(`upload ${id} has ${offset} of ${record?.size ?? '?'} bytes`);
  if (record.size > maxBytes) throw new IncompleteUpload(`upload ${id} is larger than ${maxBytes} bytes`);
  const out = createWriteStream(file);
  try {
    let written = 0;
    for (const piece of pieces) {
      const length = Math.min(piece.length, record.size - written);
      if (length <= 0) break;
      const bytes = await storage.read(piece.key, { start: piece.skip, end: piece.skip + length - 1 });
      if (!bytes) throw new IncompleteUpload(`part ${piece.key} went missing`);
      for await (const chunk of bytes) if (!out.write(chunk)) await once(out, 'drain');
      written += length;
    }
    out.end();
    await finished(out);
    return written;
  } catch (error) {
    out.destroy();
    throw error;
  }
}
