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
import { LRUCache } from 'lru-cache';
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

/** How long what PostgreSQL's statistics say is remembered: they change only with an ANALYZE. */
const STATISTICS_MS = 600_000;

/** What `rememberStatistics` keeps: each key's answer, loading or loaded. */
export interface RememberedStatistics<V> {
  /** The answer under `key`: remembered, or loaded by `load` when not (or no longer) remembered. */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** The answer under `key` when remembered and loaded, without asking. */
  known(key: string): V | undefined;
  /** Forgets every answer (tests: after an ANALYZE they made). */
  clear(): void;
}

/**
 * Remembers what PostgreSQL's statistics say (rows of the table, estimates of lists, common
 * lexemes), by key, for ten minutes: they come from the last ANALYZE, so asking again each time
 * would only cost a round trip. An `lru-cache` of at most `max` keys, whose `fetch` gives callers
 * asking together one lookup and remembers no lookup that failed; each caller names its own load.
 */
export function rememberStatistics<V extends {}>(max: number): RememberedStatistics<V> {
  const kept = new LRUCache<string, V, () => Promise<V>>({
    max,
    ttl: STATISTICS_MS,
    // Ten minutes by the wall clock (`Date`, which tests can move), as this was before lru-cache.
    perf: Date,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  return {
    get: (key, load) => kept.fetch(key, { context: load }) as Promise<V>,
    known: (key) => kept.get(key),
    clear: () => kept.clear(),
  };
}

const tableRows = rememberStatistics<number>(1);

/** The number of projects as of PostgreSQL's last ANALYZE (0 when it cannot be read). */
export function projectRows(): Promise<number> {
  return tableRows
    .get('projects', async () => {
      const { rows } = await getDb().execute<{ n: number }>(sql`SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'projects'::regclass`);
      return Number(rows[0]?.n ?? 0);
    })
    .catch(() => 0);
}

/** Statistics must promise this many times a limit before a count up to it is left out. */
export const SURELY = 4;

/** Lists whose estimates are remembered at most (a tag's list in each order, say). */
const listEstimates = rememberStatistics<number>(2000);

/**
 * PostgreSQL's estimate of the projects of the list `key` names (the same `condition` whenever it
 * is asked with that key), when it was asked within ten minutes; else undefined. Estimates come
 * from the statistics of the last ANALYZE, so asking again each time only costs a round trip.
 */
export function rememberedListEstimate(key: string): number | undefined {
  return listEstimates.known(key);
}

/** PostgreSQL's estimate of the projects matching `condition`, remembered for the list `key` when given. */
export function listEstimate(key: string | undefined, condition: SQL): Promise<number> {
  return key === undefined ? estimateMatches(condition) : listEstimates.get(key, () => estimateMatches(condition));
}

/** Forgets the numbers read (tests: after an ANALYZE they made). */
export function forgetProjectRows(): void {
  tableRows.clear();
  listEstimates.clear();
}
