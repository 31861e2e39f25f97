/**
 * Copies the filesystem driver's files (`DATA_DIR/files`) into the bucket, for a site moving to
 * S3: every file under its own key, verified by reading it back, never deleting a local file.
 * Resumable: a file the bucket already holds with the same size and the same recorded SHA-256 is
 * skipped, so a run stopped halfway (or a second run) copies only what is missing or differs.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { digestFile, digestStream } from './checksum.ts';
import { assertSafeKey } from './index.ts';
import type { BucketStorage } from './s3.ts';

export interface MigrationSummary {
  /** Files found on the disk (temporary files of writes in progress left out). */
  files: number;
  copied: number;
  /** Already in the bucket with the same size and SHA-256. */
  skipped: number;
  /** Could not be copied, or read back different from the disk: named in the report. */
  failed: number;
  /** Bytes copied (or, in a dry run, that would be). */
  bytes: number;
}

/** Files copied at once: small files are dominated by round trips, large ones by the parts already in flight. */
const PARALLEL_FILES = 4;

async function* walk(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Copies every file under `root` to `bucket` (see the module's comment); `report` receives one
 * line per file copied or failed, a progress line every 100 files, and nothing else.
 * With `dryRun` it only says what it would copy.
 */
export async function migrateFilesToBucket(options: { root: string; bucket: BucketStorage; dryRun?: boolean; report: (line: string) => void }): Promise<MigrationSummary> {
  const { root, bucket, report } = options;
  const summary: MigrationSummary = { files: 0, copied: 0, skipped: 0, failed: 0, bytes: 0 };
  const limit = pLimit(PARALLEL_FILES);
  const pending: Promise<void>[] = [];
  let done = 0;

  const migrateOne = async (file: string, key: string) => {
    try {
      const local = await digestFile(file);
      const remote = await bucket.describe(key);
      if (remote && remote.size === local.size && remote.sha256 === local.sha256) {
        summary.skipped++;
        return;
      }
      const why = remote ? 'differs in the bucket' : 'new';
      if (options.dryRun) {
        summary.copied++;
        summary.bytes += local.size;
        report(`would copy ${key} (${formatBytes(local.size)}, ${why})`);
        return;
      }
      await bucket.upload(key, file, local.sha256);
      // Read back: what the bucket serves is what the disk holds.
      const stream = await bucket.read(key);
      const stored = stream ? await digestStream(stream) : null;
      if (!stored || stored.size !== local.size || stored.sha256 !== local.sha256) {
        summary.failed++;
        report(`FAILED ${key}: the bucket holds ${stored ? `${formatBytes(stored.size)} with another SHA-256` : 'nothing'} after the copy`);
        return;
      }
      summary.copied++;
      summary.bytes += local.size;
      report(`copied ${key} (${formatBytes(local.size)}, ${why})`);
    } catch (error) {
      summary.failed++;
      report(`FAILED ${key}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      done++;
      if (done % 100 === 0) report(`… ${done} files checked`);
    }
  };

  for await (const file of walk(root)) {
    // The filesystem driver writes `<key>.<pid>.tmp` and renames it: a write in progress, not a file.
    if (/\.\d+\.tmp$/.test(file)) continue;
    const key = path.relative(root, file).split(path.sep).join('/');
    summary.files++;
    try {
      assertSafeKey(key);
    } catch {
      summary.failed++;
      report(`FAILED ${key}: not a storage key the site writes (left on the disk)`);
      continue;
    }
    pending.push(limit(() => migrateOne(file, key)));
  }
  await Promise.all(pending);
  return summary;
}

/** The summary as one line for an operator. */
export function describeMigration(summary: MigrationSummary, dryRun: boolean): string {
  const copied = dryRun ? `${summary.copied} to copy` : `${summary.copied} copied`;
  return `${summary.files} files: ${copied} (${formatBytes(summary.bytes)}), ${summary.skipped} already in the bucket, ${summary.failed} failed`;
}
