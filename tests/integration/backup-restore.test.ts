import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A site's data folder with the demo content (members, projects, comments, boards, their files)
 * and a job waiting in the queue, backed up with `npm run db:backup` while its PostgreSQL runs,
 * wiped, and restored with `npm run db:restore` into a new folder: every table, sequence and
 * stored file comes back as it was.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'copperhub-backup-test-'));
// As root, PostgreSQL runs as `postgres`, which must pass through to the data folders.
chmodSync(root, 0o711);
const original = path.join(root, 'site');
const restored = path.join(root, 'restored');
mkdirSync(original);
// The services of this process store files under this DATA_DIR and connect to its PostgreSQL.
process.env.DATA_DIR = original;
delete process.env.DATABASE_URL;

const { closeDb, countPendingMigrations, getDb, startDatabase } = await import('../../src/server/db/client.ts');
const { seedDemoIfEmpty } = await import('../../src/server/seed/demo.ts');
const { sendJob, stopQueue } = await import('../../src/server/jobs/queue.ts');

interface Snapshot {
  counts: Record<string, number>;
  samples: Record<string, string[]>;
  sequences: Record<string, string | null>;
  files: Record<string, string>;
}

/** Every table's count and a sample of its rows (as PostgreSQL prints them, generated columns too). */
async function snapshot(dataDir: string): Promise<Snapshot> {
  const client = getDb().$client;
  const tables = (
    await client.query<{ name: string }>(`
      SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND (n.nspname = 'public' OR (n.nspname = 'pgboss' AND c.relname = 'job')) ORDER BY 1`)
  ).rows.map((row) => row.name);
  const counts: Snapshot['counts'] = {};
  const samples: Snapshot['samples'] = {};
  for (const table of tables) {
    const name = table.split('.').map((part) => `"${part}"`).join('.');
    counts[table] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${name}`)).rows[0]!.n);
    samples[table] = (await client.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${name} t ORDER BY md5(to_jsonb(t)::text) LIMIT 20`)).rows.map((row) => row.row);
  }
  const sequences = Object.fromEntries(
    (await client.query<{ name: string; value: string | null }>(`SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public'`)).rows.map((row) => [row.name, row.value]),
  );
  const filesRoot = path.join(dataDir, 'files');
  const files = Object.fromEntries(
    readdirSync(filesRoot, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(filesRoot, file), createHash('sha256').update(readFileSync(file)).digest('hex')];
      }),
  );
  return { counts, samples, sequences, files };
}

function runScript(script: string, args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

afterAll(async () => {
  await stopQueue();
  await closeDb();
  rmSync(root, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('restores every table, sequence and stored file of a backup taken while the database runs', async () => {
    let database = await startDatabase({ dataDir: original });
    expect(await seedDemoIfEmpty()).toBe(true);
    await sendJob('board', { boardId: 424242 }, 'board-424242');
    await stopQueue();
    const before = await snapshot(original);
    expect(before.counts['public.users']).toBeGreaterThan(5);
    expect(before.counts['public.projects']).toBeGreaterThan(5);
    expect(before.counts['public.comments']).toBeGreaterThan(5);
    expect(before.counts['pgboss.job']).toBeGreaterThanOrEqual(1);
    expect(Object.keys(before.files).length).toBeGreaterThan(10);

    // Backed up while "the site" (this process) holds its PostgreSQL open.
    const backup = await runScript('scripts/db-backup.ts', [], original);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const backupDir = lastLine(backup.stdout);
    expect(backup.stdout).toContain('using the running PostgreSQL');
    expect(path.dirname(backupDir)).toBe(path.join(original, 'backups'));
    const manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as { tables: Record<string, number>; files: { count: number }; migrations: { applied: number } };
    expect(manifest.tables).toEqual(before.counts);
    expect(manifest.files.count).toBe(Object.keys(before.files).length);

    // The site is lost: the database stopped and the data folder gone, the backup kept elsewhere.
    await database.stop();
    // With the site stopped, the backup starts its PostgreSQL for the occasion, and stops it again.
    const offline = await runScript('scripts/db-backup.ts', [path.join(root, 'offline-backup'), '--no-files'], original);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('starting the PostgreSQL');
    expect(lastLine(offline.stdout)).toBe(path.join(root, 'offline-backup'));
    expect((JSON.parse(readFileSync(path.join(root, 'offline-backup', 'manifest.json'), 'utf8')) as typeof manifest).tables).toEqual(before.counts);
    expect(existsSync(path.join(root, 'offline-backup', 'files'))).toBe(false);
    expect(existsSync(path.join(original, 'pg', 'postmaster.pid'))).toBe(false);
    const kept = path.join(root, 'kept-backup');
    renameSync(backupDir, kept);
    rmSync(original, { recursive: true, force: true });

    // A folder that is not empty is refused, and left as it was.
    mkdirSync(restored);
    writeFileSync(path.join(restored, 'something.txt'), 'mine');
    const refused = await runScript('scripts/db-restore.ts', [kept], restored);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    expect(readdirSync(restored)).toEqual(['something.txt']);
    rmSync(restored, { recursive: true });

    const restore = await runScript('scripts/db-restore.ts', [kept], restored);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(lastLine(restore.stdout)).toBe(`restored into ${restored}`);

    process.env.DATA_DIR = restored;
    delete process.env.DATABASE_URL;
    database = await startDatabase({ dataDir: restored });
    expect(await countPendingMigrations()).toBe(0);
    const after = await snapshot(restored);
    expect(after.counts).toEqual(before.counts);
    expect(after.samples).toEqual(before.samples);
    expect(after.sequences).toEqual(before.sequences);
    expect(after.files).toEqual(before.files);
    // New rows continue the sequences instead of colliding with restored ones.
    const { rows } = await getDb().$client.query<{ id: number }>(`INSERT INTO tags (slug, name_en, name_zh) VALUES ('after-restore', 'After', '之后') RETURNING id`);
    expect(rows[0]!.id).toBeGreaterThan(Number(before.sequences.tags_id_seq ?? 0));
    await database.stop();
    expect(existsSync(path.join(restored, 'pg', 'postmaster.pid'))).toBe(false);
  }, 180_000);
});
