/**
 * `npm run db:backup [-- <folder>] [--no-files]`: backs up the database and stored files of
 * `DATA_DIR` (or `DATABASE_URL`) into a new folder, default `DATA_DIR/backups/<timestamp>`, while
 * the site runs. Prints its progress and, on the last line, the backup's path (see
 * src/server/db/backup.ts for what a backup holds).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { getConfig } from '../src/server/config.ts';
import { BackupError, createBackup } from '../src/server/db/backup.ts';

const usage = 'usage: npm run db:backup [-- <folder>] [--no-files]';
const parsed = (() => {
  try {
    return parseArgs({ allowPositionals: true, options: { 'no-files': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
})();
const args = z.object({ positionals: z.array(z.string().min(1)).max(1) }).safeParse(parsed);
if (parsed.values.help || !args.success) {
  console.log(usage);
  process.exit(parsed.values.help ? 0 : 2);
}

try {
  const target = await createBackup({
    dataDir: getConfig().dataDir,
    target: args.data.positionals[0],
    withFiles: !parsed.values['no-files'],
    report: (line) => console.log(line),
  });
  console.log(target);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
