/**
 * Operator commands: `npm run ops -- <command> [options]`, `npm run ops -- --help` for the list.
 * Each command is one entry of `COMMANDS`: its options (parsed strictly: an unknown one is a
 * usage error), a line of help, and a `run` that answers the exit code.
 * Exit codes: 0 done, 1 the command ran and something failed, 2 a usage or configuration error.
 */
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { configProblem, readConfig } from '../src/server/config.ts';
import { describeMigration, migrateFilesToBucket } from '../src/server/storage/migrate.ts';
import { createS3Storage } from '../src/server/storage/s3.ts';

interface Command {
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(values: Record<string, string | boolean | undefined>): Promise<number>;
}

/** A mistake in how the command was called or configured: said in one sentence, exit code 2. */
class UsageError extends Error {}

const COMMANDS: Record<string, Command> = {
  'storage:migrate': {
    usage: 'storage:migrate [--dry-run]',
    summary:
      'copies every stored file from DATA_DIR/files to the S3 bucket (S3_BUCKET, …), verified by size and SHA-256 after each copy; ' +
      'files already in the bucket with the same size and SHA-256 are skipped, so it can be run again after a stop; local files are never deleted. ' +
      '--dry-run lists what would be copied.',
    options: { 'dry-run': { type: 'boolean', default: false } },
    async run(values) {
      const config = readConfig();
      const problem = configProblem(config);
      if (problem) throw new UsageError(problem);
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
  try {
    ({ values } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean', short: 'h', default: false } }, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: npm run ops -- ${command.usage}`);
  }
  if (values.help) {
    console.log(`usage: npm run ops -- ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  return command.run(values);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`ops: ${error.message}`);
    process.exitCode = 2;
  } else {
    console.error('ops: failed:', error);
    process.exitCode = 1;
  }
}
