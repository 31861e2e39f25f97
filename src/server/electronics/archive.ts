/**
 * Reads a Gerber zip in memory, refusing what could hurt the server before it costs memory: every
 * cap is checked on the sizes the central directory declares, before an entry is inflated, and
 * yauzl checks while inflating that no entry yields more bytes than it declared (a lying header).
 * Nothing is written to disk.
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

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: MAX_ARCHIVE_ENTRIES,
  maxEntryBytes: MAX_ENTRY_BYTES,
  maxTotalBytes: MAX_TOTAL_BYTES,
  maxCompressionRatio: MAX_COMPRESSION_RATIO,
};

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

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (error, zip) => {
      if (error || !zip) reject(new BoardError('unreadable', undefined, error?.message));
      else resolve(zip);
    });
  });
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(new BoardError('unreadable', entry.fileName, error?.message));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // validateEntrySizes stops a lying entry too; this keeps the bound even if it did not
        if (size > maxBytes) {
          stream.destroy();
          reject(new BoardError('archive_too_large', entry.fileName));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (streamError: Error) => {
        const key = /too many bytes|too large/i.test(streamError.message) ? 'archive_too_large' : 'unreadable';
        reject(new BoardError(key, entry.fileName, streamError.message));
      });
      stream.on('end', () => resolve(Buffer.concat(chunks, size)));
    });
  });
}

/**
 * The files of a zip (`name` is the path inside it, folders kept), without directories and
 * operating-system litter. Throws `BoardError`: `archive_too_large` (too many entries, an entry or
 * the whole beyond its cap, a suspicious compression ratio), `unsafe_archive` (a name leaving the
 * archive, a symlink, an encrypted entry), `empty_archive` (no file left), `unreadable` (not a zip,
 * truncated, corrupt data).
 */
export async function extractGerberArchive(bytes: Uint8Array, limits: Partial<ArchiveLimits> = {}): Promise<SourceFile[]> {
  const caps = { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const zip = await openZip(buffer);
  try {
    if (zip.entryCount > caps.maxEntries) throw new BoardError('archive_too_large', undefined, `${zip.entryCount} entries`);
    const files: SourceFile[] = [];
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        zip.close();
        reject(error);
      };
      zip.on('error', (error: Error) => {
        // yauzl checks names itself and says so in its message; anything else is a damaged zip
        const unsafe = /invalid relative path|absolute path|invalid characters/i.test(error.message);
        fail(new BoardError(unsafe ? 'unsafe_archive' : 'unreadable', undefined, error.message));
      });
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName;
        if (isUnsafeEntryName(name)) return fail(new BoardError('unsafe_archive', name));
        const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
        if (mode === S_IFLNK) return fail(new BoardError('unsafe_archive', name, 'symlink'));
        if (name.endsWith('/') || isJunk(name)) return zip.readEntry();
        if (entry.isEncrypted()) return fail(new BoardError('unsafe_archive', name, 'encrypted'));
        if (entry.uncompressedSize > caps.maxEntryBytes) return fail(new BoardError('archive_too_large', name));
        total += entry.uncompressedSize;
        if (total > caps.maxTotalBytes) return fail(new BoardError('archive_too_large', name));
        if (entry.uncompressedSize > RATIO_EXEMPT_BYTES && entry.uncompressedSize / Math.max(1, entry.compressedSize) > caps.maxCompressionRatio) {
          return fail(new BoardError('archive_too_large', name, 'compression ratio'));
        }
        readEntry(zip, entry, entry.uncompressedSize).then((data) => {
          files.push({ name, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
          zip.readEntry();
        }, fail);
      });
      zip.readEntry();
    });
    if (files.length === 0) throw new BoardError('empty_archive');
    return files;
  } finally {
    zip.close();
  }
}
