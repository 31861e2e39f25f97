/**
 * `npm run db:restore -- <backup folder>`: restores a backup made by `npm run db:backup` into
 * `DATA_DIR`, which must be empty (or, with `DATABASE_URL`, into that database, which must have
 * no tables), then checks every table's row count and every stored file's hash against the
 * backup's manifest. The site's next start applies any migrations newer than the backup.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { getConfig } from '../src/server/config.ts';
import { BackupError, restoreBackup } from '../src/server/db/backup.ts';

const usage = 'usage: npm run db:restore -- <backup folder>   (into an empty DATA_DIR, or an empty DATABASE_URL database)';
const parsed = (() => {
  try {
    return parseArgs({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h', default: false } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
})();
const args = z.object({ positionals: z.tuple([z.string().min(1)]) }).safeParse(parsed);
if (parsed.values.help || !args.success) {
  console.log(usage);
  process.exit(parsed.values.help ? 0 : 2);
}

const { dataDir } = getConfig();
try {
  await restoreBackup({ source: args.data.positionals[0], dataDir, report: (line) => console.log(line) });
  console.log(`restored into ${process.env.DATABASE_URL ? 'DATABASE_URL' : dataDir}`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
