/**
 * Reads a zip from memory, refusing what could hurt the server before it costs memory or disk:
 * every cap is checked on the sizes the central directory declares, before an entry is inflated,
 * and yauzl checks while inflating that no entry yields more bytes than it declared (a lying
 * header). `readArchiveEntries` hands out the entries that pass, one by one, for a caller to keep
 * in memory (a Gerber set, `extractGerberArchive`) or to write out (a KiCad design source,
 * `kicad-project.ts`); this module itself writes nothing to disk.
 */
import yauzl from 'yauzl';
import { BoardError, type SourceFile } from './errors.ts';

/** More entries than any real fabrication zip has (a KiCad 6-layer set is about 20 files). */
export const MAX_ARCHIVE_ENTRIES = 500;
/** One Gerber of a large board with copper pours is a few MiB; 64 MiB is far past that. */
export const MAX_ENTRY_BYTES = 64 * 2 ** 20;
/** Everything a set may inflate to in total. */
export const MAX_TOTAL_BYTES = 160 * 2 ** 20;
/** Gerber text deflates about 5–20×; a zip bomb's entries do 1000×. */
export const MAX_COMPRESSION_RATIO = 200;
/** Below this size an entry's ratio is not judged: tiny repetitive files compress absurdly well and cost nothing. */
const RATIO_EXEMPT_BYTES = 2 ** 20;

export interface ArchiveLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  maxCompressionRatio: number;
}

/** The caps of a Gerber zip. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: MAX_ARCHIVE_ENTRIES,
  maxEntryBytes: MAX_ENTRY_BYTES,
  maxTotalBytes: MAX_TOTAL_BYTES,
  maxCompressionRatio: MAX_COMPRESSION_RATIO,
};

/** The verdicts on a zip that boards and design sources share (their contracts both name them). */
export type ArchiveErrorKey = 'unsafe_archive' | 'archive_too_large' | 'unreadable';

/**
 * Why a zip cannot be read safely; each caller turns it into its own contract's error
 * (`BoardError`, `SourceError`) with the same key. `file` is the entry at fault, as named in the zip.
 */
export class ArchiveError extends Error {
  readonly key: ArchiveErrorKey;
  readonly file?: string;
  readonly detail?: string;

  constructor(key: ArchiveErrorKey, file?: string, detail?: string) {
    super(`${key}${file ? ` (${file})` : ''}${detail ? `: ${detail}` : ''}`);
    this.name = 'ArchiveError';
    this.key = key;
    if (file !== undefined) this.file = file;
    if (detail !== undefined) this.detail = detail;
  }
}

/** An entry of a zip that passed every check, not yet inflated. */
export interface ArchiveEntry {
  /** Its path inside the zip, folders kept, `/`-separated. */
  name: string;
  /** Its uncompressed size as the zip declares it; reading it never yields more. */
  size: number;
  /** Its bytes, inflated chunk by chunk; rejects with `ArchiveError` on corrupt data or a lying size. */
  chunks(): AsyncIterable<Buffer>;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Operating-system litter that zips carry along and that is never part of a design. */
function isJunk(name: string): boolean {
  const parts = name.split('/');
  const base = parts[parts.length - 1]!;
  return parts.includes('__MACOSX') || base === '.DS_Store' || base === 'Thumbs.db' || base === 'desktop.ini' || base.startsWith('._');
}

/** A name that would leave the folder it is extracted into, on any system. */
export function isUnsafeEntryName(name: string): boolean {
  if (name.includes('\0') || name.includes('\\')) return true;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return true;
  return name.split('/').some((part) => part === '..');
}

/** yauzl checks names itself and says so in its message; anything else it reports on the zip is a damaged zip. */
function zipError(error: Error): ArchiveError {
  const unsafe = /invalid relative path|absolute path|invalid characters/i.test(error.message);
  return new ArchiveError(unsafe ? 'unsafe_archive' : 'unreadable', undefined, error.message);
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (error, zip) => {
      if (error || !zip) reject(new ArchiveError('unreadable', undefined, error?.message));
      else resolve(zip);
    });
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(new ArchiveError('unreadable', entry.fileName, error?.message));
      else resolve(stream);
    });
  });
}

async function* inflate(zip: yauzl.ZipFile, entry: yauzl.Entry): AsyncGenerator<Buffer> {
  const stream = await openEntry(zip, entry);
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // validateEntrySizes stops a lying entry too; this keeps the bound even if it did not
      if (size > entry.uncompressedSize) throw new ArchiveError('archive_too_large', entry.fileName);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    // yauzl's validateEntrySizes says "too many bytes in the stream" for a lying header; anything else is corrupt data
    const message = (error as Error).message;
    throw new ArchiveError(/too many bytes|too large/i.test(message) ? 'archive_too_large' : 'unreadable', entry.fileName, message);
  }
}

/**
 * The files of a zip that pass every check, in the zip's order, leaving out directories and
 * operating-system litter; nothing is inflated until a caller reads an entry's `chunks()`.
 * Throws `ArchiveError`: `archive_too_large` (more entries than `maxEntries`, an entry or the
 * whole beyond its cap, a suspicious compression ratio), `unsafe_archive` (a name leaving the
 * archive, a symlink, an encrypted entry), `unreadable` (not a zip, truncated, corrupt data).
 */
export async function* readArchiveEntries(bytes: Uint8Array, limits: ArchiveLimits): AsyncGenerator<ArchiveEntry> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const zip = await openZip(buffer);
  // yauzl emits an error at most once and then no further entry: kept, so a later read rejects
  // with it instead of waiting for an entry that never comes.
  let failure: ArchiveError | undefined;
  let waiting: { resolve: (entry: yauzl.Entry | null) => void; reject: (error: ArchiveError) => void } | undefined;
  const settle = (outcome: yauzl.Entry | null | ArchiveError) => {
    const current = waiting;
    waiting = undefined;
    if (outcome instanceof ArchiveError) current?.reject(outcome);
    else current?.resolve(outcome);
  };
  zip.on('error', (error: Error) => {
    failure = zipError(error);
    settle(failure);
  });
  zip.on('entry', (entry: yauzl.Entry) => settle(entry));
  zip.on('end', () => settle(null));
  const nextEntry = () =>
    failure
      ? Promise.reject(failure)
      : new Promise<yauzl.Entry | null>((resolve, reject) => {
          waiting = { resolve, reject };
          zip.readEntry();
        });
  try {
    if (zip.entryCount > limits.maxEntries) throw new ArchiveError('archive_too_large', undefined, `${zip.entryCount} entries`);
    let total = 0;
    for (let entry = await nextEntry(); entry; entry = await nextEntry()) {
      const name = entry.fileName;
      if (isUnsafeEntryName(name)) throw new ArchiveError('unsafe_archive', name);
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK) throw new ArchiveError('unsafe_archive', name, 'symlink');
      if (name.endsWith('/') || isJunk(name)) continue;
      if (entry.isEncrypted()) throw new ArchiveError('unsafe_archive', name, 'encrypted');
      if (entry.uncompressedSize > limits.maxEntryBytes) throw new ArchiveError('archive_too_large', name);
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) throw new ArchiveError('archive_too_large', name);
      if (entry.uncompressedSize > RATIO_EXEMPT_BYTES && entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxCompressionRatio) {
        throw new ArchiveError('archive_too_large', name, 'compression ratio');
      }
      const current = entry;
      yield { name, size: current.uncompressedSize, chunks: () => inflate(zip, current) };
    }
  } finally {
    zip.close();
  }
}

/**
 * The files of a Gerber zip (`name` is the path inside it, folders kept), without directories and
 * operating-system litter. Throws `BoardError`: `archive_too_large`, `unsafe_archive` and
 * `unreadable` as `readArchiveEntries` says, `empty_archive` when no file is left.
 */
export async function extractGerberArchive(bytes: Uint8Array, limits: Partial<ArchiveLimits> = {}): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  try {
    for await (const entry of readArchiveEntries(bytes, { ...DEFAULT_ARCHIVE_LIMITS, ...limits })) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.chunks()) chunks.push(chunk);
      const data = Buffer.concat(chunks);
      files.push({ name: entry.name, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    }
  } catch (error) {
    if (error instanceof ArchiveError) throw new BoardError(error.key, error.file, error.detail);
    throw error;
  }
  if (files.length === 0) throw new BoardError('empty_archive');
  return files;
}
