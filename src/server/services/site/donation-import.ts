/**
 * Donations received on another site's page (`DONATION_URL`), imported from its CSV export:
 * `npm run ops -- donations:import <file.csv> [--dry-run]`. The format is Open Collective's
 * transactions export (the dashboard's "Export CSV", or
 * `https://rest.opencollective.com/v2/<collective>/transactions.csv`); columns are found by their
 * header, in any order, and columns not listed here are ignored:
 *
 * | column | required | meaning |
 * |---|---|---|
 * | `id` | yes | the transaction's id: a row already imported is not imported again |
 * | `datetime` | yes | when it was made, ISO 8601 |
 * | `type` | yes | `CREDIT` rows are donations; `DEBIT` rows (expenses, fees) are skipped |
 * | `kind` | yes | `CONTRIBUTION` and `ADDED_FUNDS` are donations; other kinds are skipped |
 * | `amount` | yes | in major units with a point (`25.00`), as the export writes it |
 * | `currency` | yes | ISO 4217 (`USD`, `EUR`, `CNY`) |
 * | `oppositeAccountName` | no | the donor's name (empty: shown as anonymous) |
 * | `oppositeAccountSlug` | no | an `incognito…` account is an anonymous donor |
 * | `isRefund` | no | `true` rows are skipped (a refund is not a donation) |
 * | `message` | no | not in Open Collective's export: a column of your own for the donor's words |
 * | `project` | no | not in Open Collective's export: the public id of a project the donation was for |
 *
 * All or nothing: every row is checked first; one bad row (named by its line) and nothing is
 * imported, so a fixed file can simply be imported again.
 */
import Papa from 'papaparse';
import { and, eq, inArray } from 'drizzle-orm';
import { currencyDigits, DONATION_MESSAGE_MAX, DONOR_NAME_MAX, parseMajorAmount } from '../../../lib/donation-rules.ts';
import { normalizePlainText } from '../../../lib/text.ts';
import { getDb } from '../../db/client.ts';
import { donations, projects } from '../../db/schema/index.ts';
import { recordDonations, type ReceivedDonation } from './donations.ts';

const REQUIRED_COLUMNS = ['id', 'datetime', 'type', 'kind', 'amount', 'currency'] as const;
const DONATION_KINDS = new Set(['CONTRIBUTION', 'ADDED_FUNDS']);
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export interface ImportProblem {
  /** The line of the file the row starts on (the header is line 1). */
  line: number;
  problem: string;
}

export interface DonationImportReport {
  /** Donation rows found in the file. */
  donations: number;
  /** Of those, stored by this import (or that would be, with `dryRun`). */
  imported: number;
  /** Of those, already stored by an earlier import. */
  alreadyImported: number;
  /** Rows that are not donations (expenses, fees, refunds). */
  skipped: number;
  /** Rows that could not be read; when there are any, nothing was imported. */
  problems: ImportProblem[];
}

type Row = Record<string, string>;

/** The rows of `text` with the line each starts on (a quoted value may span lines). */
function readRows(file: string): { header: string[]; rows: Array<{ line: number; row: Row }>; problems: ImportProblem[] } {
  const text = file.replace(/^\uFEFF/, '');
  const rows: Array<{ line: number; row: Row }> = [];
  const problems: ImportProblem[] = [];
  let header: string[] = [];
  // Where the previous row (at first, the header) ended, and the line counted up to `offset`.
  let previousEnd = Math.max(0, text.indexOf('\n'));
  let offset = 0;
  let line = 1;
  const advance = (to: number) => {
    for (; offset < to; offset += 1) if (text.charCodeAt(offset) === 10) line += 1;
  };
  Papa.parse<Row>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (name) => name.trim(),
    step: (result) => {
      if (header.length === 0) header = result.meta.fields ?? [];
      let start = previousEnd;
      while (start < text.length && (text[start] === '\n' || text[start] === '\r')) start += 1;
      advance(start);
      previousEnd = result.meta.cursor;
      for (const error of result.errors) problems.push({ line, problem: error.message });
      rows.push({ line, row: result.data });
    },
  });
  return { header, rows, problems };
}

/** Whether a row is a donation, a row to skip, or a problem (said in a sentence). */
function readDonation(row: Row, projectIds: Map<string, number>): ReceivedDonation | 'skip' | string {
  const get = (name: string) => (row[name] ?? '').trim();
  if (get('type').toUpperCase() !== 'CREDIT' || !DONATION_KINDS.has(get('kind').toUpperCase())) return 'skip';
  if (get('isRefund').toLowerCase() === 'true') return 'skip';
  const id = get('id');
  if (!id || id.length > 200) return 'id is missing';
  const currency = get('currency').toUpperCase();
  if (!CURRENCIES.has(currency)) return `currency "${get('currency')}" is not an ISO 4217 code`;
  const amount = parseMajorAmount(get('amount'), currency);
  if (amount === null || amount <= 0 || amount > 2_000_000_000) {
    return `amount "${get('amount')}" is not a positive amount with at most ${currencyDigits(currency)} decimals`;
  }
  const createdAt = new Date(get('datetime'));
  if (!get('datetime') || Number.isNaN(createdAt.getTime())) return `datetime "${get('datetime')}" is not a date (ISO 8601)`;
  const project = get('project');
  const projectId = project ? projectIds.get(project) : null;
  if (project && projectId === undefined) return `project "${project}" is not a project of this site`;
  const name = normalizePlainText(get('oppositeAccountName')).slice(0, DONOR_NAME_MAX);
  const incognito = /^incognito/i.test(get('oppositeAccountSlug')) || /^incognito$/i.test(name);
  return {
    provider: 'opencollective',
    providerRef: id,
    donorName: incognito ? '' : name,
    userId: null,
    anonymous: incognito || !name,
    amount,
    currency,
    message: normalizePlainText(get('message')).slice(0, DONATION_MESSAGE_MAX),
    projectId: projectId ?? null,
    createdAt,
  };
}

/** Which of `refs` an earlier import already stored. */
async function storedRefs(refs: string[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let i = 0; i < refs.length; i += 1000) {
    const rows = await getDb()
      .select({ ref: donations.providerRef })
      .from(donations)
      .where(and(eq(donations.provider, 'opencollective'), inArray(donations.providerRef, refs.slice(i, i + 1000))));
    for (const row of rows) stored.add(row.ref);
  }
  return stored;
}

/**
 * Imports the donations of an Open Collective CSV export (see the top of this file), each once:
 * all rows are checked first and nothing is stored when any is bad. With `dryRun`, says what
 * would be imported and stores nothing.
 */
export async function importDonationsCsv(text: string, options: { dryRun?: boolean } = {}): Promise<DonationImportReport> {
  const { header, rows, problems } = readRows(text);
  const report: DonationImportReport = { donations: 0, imported: 0, alreadyImported: 0, skipped: 0, problems };
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    problems.push({ line: 1, problem: `the header has no ${missing.map((column) => `"${column}"`).join(', ')} column (an Open Collective transactions export has them)` });
    return report;
  }

  const wantedProjects = [...new Set(rows.map(({ row }) => (row.project ?? '').trim()).filter(Boolean))];
  const projectRows = wantedProjects.length
    ? await getDb().select({ id: projects.id, publicId: projects.publicId }).from(projects).where(inArray(projects.publicId, wantedProjects))
    : [];
  const projectIds = new Map(projectRows.map((row) => [row.publicId, row.id]));

  const found: ReceivedDonation[] = [];
  const seen = new Map<string, number>();
  for (const { line, row } of rows) {
    const result = readDonation(row, projectIds);
    if (result === 'skip') report.skipped += 1;
    else if (typeof result === 'string') problems.push({ line, problem: result });
    else if (seen.has(result.providerRef)) problems.push({ line, problem: `id "${result.providerRef}" is also on line ${seen.get(result.providerRef)}` });
    else {
      seen.set(result.providerRef, line);
      found.push(result);
    }
  }
  report.donations = found.length;
  if (problems.length > 0) return report;

  if (options.dryRun) {
    const stored = await storedRefs(found.map((donation) => donation.providerRef));
    report.imported = found.filter((donation) => !stored.has(donation.providerRef)).length;
  } else {
    report.imported = await recordDonations(found);
  }
  report.alreadyImported = found.length - report.imported;
  return report;
}
