/**
 * How many projects a list or a search has, at a bounded cost. Counting every match is exact but
 * costs as much as reading them: at 100,000 projects `count(*)` of the published projects took
 * 60-90 ms (8-13 ms once VACUUM let it read an index alone), of a parent tag 90-380 ms, of a
 * search word hundreds more, while the page itself reads 24 rows in about a millisecond. So the
 * matches are counted up to a limit, which reads at most that many rows (0.2-4 ms); beyond
 * it the total is PostgreSQL's estimate, never below what was counted, and the answer says so
 * (`totalExact: false`, the page "about N").
 *
 * An exact number from elsewhere does not fit every list: `pg_class.reltuples` knows only all
 * rows of the table (deleted projects too) and only as of the last ANALYZE; an
 * index-only scan is fast only once VACUUM has marked the table visible and still reads every
 * entry; neither helps a tag, a member or a search, which must be cheap as well.
 */
import { sql, type SQL } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { preparedOnDemand, prepareSql } from '../../db/prepared.ts';
import { projects } from '../../db/schema/index.ts';

/** Matches are counted up to this many; beyond, the total is an estimate. */
export const COUNT_LIMIT = 1000;

/** A total that is exact when `totalExact`, else PostgreSQL's estimate. */
export interface ProjectTotal {
  total: number;
  totalExact: boolean;
}

/** The projects matching `condition`, no more than `limit + 1` of them: one more tells "more than `limit`". */
export function cappedMatches(columns: SQL, condition: SQL, limit: number): SQL {
  return sql`SELECT ${columns} FROM ${projects} WHERE ${condition} LIMIT ${limit + 1}`;
}

/**
 * The number of projects matching `condition`, counted up to `limit + 1`. `statement`: the name
 * of a prepared statement for this `condition` (the same for every call with that name), built
 * once for a list counted on every request.
 */
export async function countUpTo(condition: SQL, limit: number, statement?: string): Promise<number> {
  const { rows } = statement
    ? await countStatement(statement, condition).execute({ cap: limit + 1 })
    : await getDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM (${cappedMatches(sql`1`, condition, limit)}) AS capped`);
  return rows[0]?.n ?? 0;
}

const countStatement = preparedOnDemand('count_projects', (db, name, condition: SQL) =>
  prepareSql<{ n: number }>(db, name, sql`SELECT count(*)::int AS n FROM (SELECT ${sql`1`} FROM ${projects} WHERE ${condition} LIMIT ${sql.placeholder('cap')}) AS capped`),
);

/**
 * The total of matches counted up to `limit + 1` (`counted`): exact when they were no more than
 * `limit`, else `estimate()` (asked only then), never below what was counted nor `atLeast`.
 */
export async function resolveTotal(counted: number, limit: number, estimate: () => Promise<number>, atLeast = 0): Promise<ProjectTotal> {
  if (counted <= limit) return { total: counted, totalExact: true };
  return { total: Math.max(counted, atLeast, await estimate()), totalExact: false };
}

/** PostgreSQL's estimate of the projects matching `condition`: the rows it plans to find. */
export async function estimateMatches(condition: SQL): Promise<number> {
  const plan = await getDb().execute<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${projects} WHERE ${condition}`);
  return Math.round(plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
}

let rowStatistics: { at: number; rows: Promise<number> } | undefined;

/** The number of projects as of PostgreSQL's last ANALYZE, read again every ten minutes. */
export function projectRows(): Promise<number> {
  if (!rowStatistics || Date.now() - rowStatistics.at > 600_000) {
    const rows = getDb()
      .execute<{ n: number }>(sql`SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'projects'::regclass`)
      .then(({ rows: [row] }) => Number(row?.n ?? 0))
      .catch(() => 0);
    rowStatistics = { at: Date.now(), rows };
  }
  return rowStatistics.rows;
}

/** Statistics must promise this many times a limit before a count up to it is left out. */
export const SURELY = 4;

/** The estimates of lists remembered (`listEstimate`): read again after this long, as `projectRows`. */
const LIST_ESTIMATE_MS = 600_000;
/** Lists whose estimates are remembered at most (a tag's list in each order, say). */
const LIST_ESTIMATES_KEPT = 2000;
const listEstimates = new Map<string, { at: number; estimate: number }>();

/**
 * PostgreSQL's estimate of the projects of the list `key` names (the same `condition` whenever it
 * is asked with that key), when it was asked within ten minutes; else undefined. Estimates come
 * from the statistics of the last ANALYZE, so asking again each time only costs a round trip.
 */
export function rememberedListEstimate(key: string): number | undefined {
  const known = listEstimates.get(key);
  return known && Date.now() - known.at <= LIST_ESTIMATE_MS ? known.estimate : undefined;
}

/** PostgreSQL's estimate of the projects matching `condition`, remembered for the list `key` when given. */
export async function listEstimate(key: string | undefined, condition: SQL): Promise<number> {
  const known = key === undefined ? undefined : rememberedListEstimate(key);
  if (known !== undefined) return known;
  const estimate = await estimateMatches(condition);
  if (key !== undefined) {
    if (listEstimates.size >= LIST_ESTIMATES_KEPT) listEstimates.clear();
    listEstimates.set(key, { at: Date.now(), estimate });
  }
  return estimate;
}

/** Forgets the numbers read (tests: after an ANALYZE they made). */
export function forgetProjectRows(): void {
  rowStatistics = undefined;
  listEstimates.clear();
}
