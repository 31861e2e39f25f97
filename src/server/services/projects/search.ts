/**
 * `project/search`: English by PostgreSQL full-text search (stemming, ranking, prefix matches
 * for part numbers), Chinese (and other CJK) by substring, mixed queries by requiring both, with
 * highlighted titles and summaries.
 *
 * At 100k projects a common word matches tens of thousands of projects, and ranking or counting
 * them all costs a hundred milliseconds and more, so a search reads a bounded number of rows:
 * - it counts matches up to `COUNT_LIMIT`; beyond, `total` is PostgreSQL's estimate (never below
 *   what was counted) and `totalExact` is false (the page says "about N");
 * - the count is left out when it would surely end beyond its limit: for one word (or a CJK run
 *   of one or two characters) by PostgreSQL's statistics of the columns; for several parts, or a
 *   longer run, whose every part is common, by a probe of the newest `PROBE_ROWS` projects,
 *   whose share of matches then gives the total;
 * - "newest" and "stars" are exact at any size (PostgreSQL reads the index of the order, or all
 *   matches when they are few);
 * - "relevance" ranks as before: `ts_rank` of the English part plus, per CJK run, 1.0 when the
 *   title has it, 0.4 when the summary has it, else 0.1; then stars, newest, id. With at most
 *   `COUNT_LIMIT` matches every match is ranked (in the counting pass). With more, the title
 *   matches are ranked: all of them when there are at most `TITLE_LIMIT`, else the most starred
 *   `TIER_CANDIDATES` (or as many as the page needs); when they are fewer than that, the most
 *   starred matches join them. A title match outranks any other: for one word, weight A (1.0) of
 *   the title against at most B (0.4) however often the word occurs elsewhere; for CJK runs, 1.0
 *   against 0.4; for several words, in all but contrived cases. So the pages are those of ranking
 *   every match as long as the title matches fill them and number at most `TITLE_LIMIT`.
 *
 * How each part is found (columns derived by PostgreSQL, see the schema and migration 0008):
 * - English words: `search_vector`, GIN. GIN gathers every row of a prefix before intersecting, so
 *   the index looks up the rarest word alone (by PostgreSQL's statistics of the column, cached)
 *   and the whole query is checked on the rows it finds; a compound (`usb-c`, a phrase of itself
 *   and its parts 'usb-c':* <-> 'usb':* <-> 'c':*) is looked up by the compound; a common word
 *   beside CJK runs is only checked, the runs find the rows.
 * - CJK runs: `search_grams`, every character and pair of adjacent characters (GIN, exact), finds
 *   the projects with the run (its rarest pair), and `search_cjk`, the CJK text alone, short and
 *   kept in the row, confirms it with `strpos`. The confirmation is written `(…) IS NOT FALSE`
 *   (the same test: it is never null here) so that PostgreSQL leaves it out of its estimate, and
 *   first, so a row read in sort order is looked up in the grams (kept out of line) only when it
 *   has the run.
 * - Title matches: `title_terms`, the English lexemes and CJK grams of the title alone, GIN.
 */
import { and, inArray, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { CJK_CLASS_JS } from '../../../lib/cjk.ts';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { preparedOnDemand, prepareSql } from '../../db/prepared.ts';
import { projects, projectTags, tags, users } from '../../db/schema/index.ts';
import { cardColumns, cardTags, toCards, type CardRow } from './cards.ts';
import { cappedMatches, COUNT_LIMIT, countUpTo, estimateMatches, forgetProjectRows, projectRows, rememberStatistics, resolveTotal, SURELY } from './totals.ts';
import { tagIdsWithChildren } from './tags.ts';
import type { z } from 'zod';
import type { searchPageSchema, searchResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { htmlToText, isListed } from '../core/index.ts';

export type SearchSort = 'relevance' | 'newest' | 'stars';

export type SearchResult = z.infer<typeof searchResultSchema>;

/** A page of results; `total` is exact when `totalExact`, else PostgreSQL's estimate. */
export type SearchPage = z.infer<typeof searchPageSchema>;

/** Beyond `COUNT_LIMIT`, the title matches are ranked whole up to this many. */
export const TITLE_LIMIT = 2000;
/** Beyond those, the most starred title matches (or matches) ranked. */
export const TIER_CANDIDATES = 50;
/** A word in more than this share of projects does not lead the index beside CJK runs. */
const COMMON_WORD = 0.05;

export interface ParsedQuery {
  /** Latin (and other non-CJK) words, for full-text search. */
  words: string[];
  /** Runs of CJK characters, for substring search. */
  cjk: string[];
  /** The non-CJK text when it uses web-search syntax (quotes, `-word`, `or`), else null. */
  syntax: string | null;
}

/** CJK runs: the characters of `CJK_RANGES`, the class the database's search columns use. */
const CJK_RUN = new RegExp(`[${CJK_CLASS_JS}]+`, 'gu');
const WORD = /[\p{L}\p{N}]+(?:[-.][\p{L}\p{N}]+)*/gu;

/** Splits a query into CJK runs and the other words. */
export function parseQuery(q: string): ParsedQuery {
  const text = q.normalize('NFKC').slice(0, 200);
  const cjk = [...new Set(text.match(CJK_RUN) ?? [])];
  const rest = text.replace(CJK_RUN, ' ');
  const words = [...new Set((rest.match(WORD) ?? []).map((word) => word.toLowerCase()))].slice(0, 12);
  const syntax = /"|(^|\s)-[\p{L}\p{N}]|\sor\s/iu.test(rest) && words.length > 0 ? rest.trim() : null;
  return { words, cjk: cjk.slice(0, 6), syntax };
}

/** `%text%` for LIKE, with the pattern characters escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The gram (`cjk_grams()`) that finds a CJK run: the run itself for one or two characters, else
 * its rarest pair of adjacent characters (then `strpos` confirms the run). Looking up one gram
 * keeps PostgreSQL's estimate right: several would be multiplied as if independent, and a common
 * word would look rare. A run holds only CJK characters, so no quoting is needed.
 */
function rarestGram(run: string, frequencies: Map<string, number>): { gram: string; frequency: number } {
  const chars = [...run];
  const grams = chars.length <= 2 ? [run] : chars.slice(0, -1).map((char, i) => char + chars[i + 1]);
  const rarest = grams.reduce((best, next) => ((frequencies.get(next) ?? 0) < (frequencies.get(best) ?? 0) ? next : best));
  return { gram: `'${rarest}'`, frequency: frequencies.get(rarest) ?? 0 };
}

/**
 * The English part: `exact` is the query (web-search syntax as typed, else every word as a
 * prefix); `rarest` matches a superset of it through one lookup (its rarest word, or a
 * compound's own lexeme), and is what the index looks up unless `indexed` is false.
 */
interface TextQuery {
  exact: SQL;
  rarest: SQL;
  indexed: boolean;
  /** The share of projects the rarest word is in (0: rarer than any common one), null unknown. */
  frequency: number | null;
  /** The query's one term as PostgreSQL parses it (`'sdr':*`) when it is one word of one lexeme. */
  single?: string;
}

/** Every word as a prefix, all required: the text of the English part's `to_tsquery`. */
const prefixQuery = (words: string[]) => words.map((word) => `${word}:*`).join(' & ');

async function textQuery(parsed: ParsedQuery): Promise<TextQuery | null> {
  const db = getDb();
  if (parsed.syntax) {
    const query = sql`websearch_to_tsquery('english', ${parsed.syntax})`;
    const [row] = (await db.execute<{ n: number }>(sql`SELECT numnode(${query}) AS n`)).rows;
    return row?.n ? { exact: query, rarest: query, indexed: true, frequency: null } : null;
  }
  if (parsed.words.length === 0) return null;
  const exact = sql`to_tsquery('english', ${prefixQuery(parsed.words)})`;
  // A query of stop words only ("the") becomes empty: no text condition.
  const words = (await wordTerms(parsed.words)).filter(Boolean);
  if (words.length === 0) return null;
  const frequencies = await lexemeFrequencies('search_vector');
  const rarest = words
    .map((term) => ({ term, lookup: term.split(' <-> ')[0]!, frequency: prefixFrequency(frequencies, term) }))
    .reduce((best, next) => (next.frequency < best.frequency ? next : best));
  const indexed = parsed.cjk.length === 0 || rarest.frequency <= COMMON_WORD;
  const frequency = rarest.frequency;
  if (words.length === 1 && rarest.lookup === rarest.term) return { exact, rarest: exact, indexed, frequency, single: rarest.term };
  return { exact, rarest: sql`${rarest.lookup}::tsquery`, indexed, frequency };
}

const termCache = new Map<string, string>();

/**
 * Each word's own query as text, as PostgreSQL parses `word:*`: `'weather':*`, a compound's
 * phrase, or '' for a stop word; remembered (the English configuration does not change), so a
 * known word costs no round trip.
 */
async function wordTerms(words: string[]): Promise<string[]> {
  const unknown = words.filter((word) => !termCache.has(word));
  if (unknown.length) {
    const [row] = (
      await getDb().execute<{ terms: string[] }>(
        sql`SELECT ARRAY[${sql.join(
          unknown.map((word) => sql`to_tsquery('english', ${`${word}:*`})::text`),
          sql`, `,
        )}] AS terms`,
      )
    ).rows;
    if (termCache.size + unknown.length > 10_000) termCache.clear();
    unknown.forEach((word, i) => termCache.set(word, row!.terms[i]!));
  }
  return words.map((word) => termCache.get(word)!);
}

/**
 * An estimate of the number of matches: from the share of projects in the query's rarest part
 * when known (the same statistics PostgreSQL would use, without a round trip), else PostgreSQL's
 * estimate of `estimated`.
 */
async function estimateTotal(estimated: SQL, share: number | null): Promise<number> {
  return share !== null ? Math.round(share * (await projectRows())) : estimateMatches(estimated);
}

/** One key for each of the three columns `lexemeFrequencies` reads. */
const lexemeStatistics = rememberStatistics<Map<string, number>>(3);

/**
 * The share of projects each common lexeme of a tsvector column is in, from PostgreSQL's own
 * statistics (the most common elements ANALYZE found); none known when they cannot be read.
 */
function lexemeFrequencies(column: 'search_vector' | 'search_grams' | 'title_terms'): Promise<Map<string, number>> {
  return lexemeStatistics
    .get(column, async () => {
      const {
        rows: [row],
      } = await getDb().execute<{ elems: string[] | null; freqs: number[] | null }>(
        sql`SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs FROM pg_stats
            WHERE schemaname = current_schema() AND tablename = 'projects' AND attname = ${column}`,
      );
      return new Map((row?.elems ?? []).map((lexeme, i) => [lexeme, row!.freqs![i]!]));
    })
    .catch(() => new Map<string, number>());
}

/**
 * The share of projects that surely have a lexeme `term` matches (`'power':*`): the most common
 * such lexeme's (a prefix's lexemes may share projects); 0 when none is common.
 */
function surePrefixFrequency(frequencies: Map<string, number>, term: string): number {
  const match = /^'((?:[^']|'')*)'(:\*)?$/.exec(term);
  if (!match) return 0;
  const lexeme = match[1]!.replace(/''/g, "'");
  let most = 0;
  for (const [common, frequency] of frequencies) if (match[2] ? common.startsWith(lexeme) : common === lexeme) most = Math.max(most, frequency);
  return most;
}


/**
 * A query of several parts (or a CJK run longer than its grams) whose every part is common is
 * tested on this many of the newest projects, read in order (`probeShares`).
 */
const PROBE_ROWS = 3000;
/** A share found by the probe counts only with at least this many matches behind it. */
const PROBE_MIN_MATCHES = 12;

type ProbedShares = {
  /** Projects read: fewer than `PROBE_ROWS` when that is all there are. */
  read: number;
  /** Of them, those matching the query anywhere, and in the title. */
  matches: number;
  titled: number;
};

/**
 * How often a query matches among the `PROBE_ROWS` newest projects: one read through the index
 * of the newest, testing each row with the parts' exact checks (`search_vector`, `title_terms`,
 * `search_cjk` and the title are kept in the row, so each test costs about a microsecond). It
 * stands in for the count when several common parts meet, where PostgreSQL's statistics give
 * only an upper bound (the rarest part's share) and the count would gather that part's every
 * row from its GIN index first (20 ms for a word in 40,000 of a million projects).
 */
async function probeShares(inProject: Part[], inTitle: Part[], probeRows: number): Promise<ProbedShares> {
  const all = (parts: Part[]) => and(...parts.map((part) => part.check))!;
  const { rows } = await getDb().execute<ProbedShares>(sql`
    SELECT count(*)::int AS read, count(*) FILTER (WHERE m)::int AS matches, count(*) FILTER (WHERE t)::int AS titled
    FROM (SELECT ${all(inProject)} AS m, ${all(inTitle)} AS t FROM ${projects} WHERE ${isListed}
      ORDER BY ${projects.publishedAt} DESC, ${projects.id} DESC LIMIT ${probeRows}) AS probe`);
  return rows[0] ?? { read: 0, matches: 0, titled: 0 };
}

/**
 * Whether matches found `found` times in the `probe.read` projects probed surely number more
 * than `limit` of `rowCount`: the probe read all it was to (there are that many projects), and the
 * share promises SURELY times the limit from enough matches to trust it.
 */
function probedMany(found: number, probe: { read: number; rows: number }, rowCount: number, limit: number): boolean {
  return probe.read >= probe.rows && found >= PROBE_MIN_MATCHES && (found / probe.read) * rowCount >= SURELY * (limit + 1);
}

/** Forgets the statistics read (tests: after an ANALYZE they made). */
export function forgetSearchStatistics(): void {
  lexemeStatistics.clear();
  forgetProjectRows();
}

/** The share of projects with a lexeme `term` (`'power':*`) matches: 0 when none is common. */
function prefixFrequency(frequencies: Map<string, number>, term: string): number {
  const match = /^'((?:[^']|'')*)'(:\*)?/.exec(term);
  if (!match) return 0;
  const lexeme = match[1]!.replace(/''/g, "'");
  let sum = 0;
  for (const [common, frequency] of frequencies) if (match[2] ? common.startsWith(lexeme) : common === lexeme) sum += frequency;
  return sum;
}

/**
 * One part of a query — its English words, or one CJK run — in one field (the whole project or
 * the title): `check` tests it exactly and is left out of PostgreSQL's estimate or cheap to
 * evaluate; `lookup` finds its rows through a GIN index (null when the part is not looked up: a
 * common word beside CJK runs) and makes the check needless when `exact`; `frequency` is the share
 * of projects the lookup finds (null: unknown).
 */
interface Part {
  check: SQL;
  lookup: SQL | null;
  exact: boolean;
  frequency: number | null;
}

/** The parts of a query in the whole project (`search_vector`, `search_grams`, `search_cjk`). */
function projectParts(text: TextQuery | null, runs: { run: string; gram: string; frequency: number }[]): Part[] {
  return [
    ...(text
      ? [{ check: sql`ts_match_vq(${projects.searchVector}, ${text.exact})`, lookup: text.indexed ? sql`${projects.searchVector} @@ ${text.rarest}` : null, exact: text.rarest === text.exact, frequency: text.frequency }]
      : []),
    // LIKE rather than `strpos(…) > 0`, which PostgreSQL counts as two operations and so would
    // test after the grams (one), fetching them first for every row read in order.
    ...runs.map(({ run, gram, frequency }) => ({
      check: sql`(${projects.searchCjk} LIKE ${containsPattern(run)}) IS NOT FALSE`,
      lookup: sql`${projects.searchGrams} @@ ${gram}::tsquery`,
      exact: false,
      frequency,
    })),
  ];
}

/** The parts of a query in the title (`title_terms`, the title itself). */
function titleParts(text: TextQuery | null, runs: { run: string; gram: string; frequency: number }[]): Part[] {
  return [
    ...(text
      ? [{ check: sql`ts_match_vq(${projects.titleTerms}, ${text.exact})`, lookup: text.indexed ? sql`${projects.titleTerms} @@ ${text.rarest}` : null, exact: text.rarest === text.exact, frequency: text.frequency }]
      : []),
    ...runs.map(({ run, gram, frequency }) => ({
      check: sql`(strpos(${projects.title}, ${run}) > 0) IS NOT FALSE`,
      lookup: sql`${projects.titleTerms} @@ ${gram}::tsquery`,
      exact: false,
      frequency,
    })),
  ];
}

/**
 * All parts at once. Each is looked up, or with `rarestOnly` only the rarest: then PostgreSQL
 * estimates the rows by that part alone, an upper bound, where several lookups would be multiplied
 * as if independent and a common pair of words would look rare — right for a result known to be
 * big (read in sort order, it stops early), wrong for a small one (read whole through the index).
 * The checks come first: PostgreSQL keeps the written order of equally cheap conditions.
 */
function allParts(parts: Part[], rarestOnly: boolean): SQL[] {
  const looked = parts.filter((part) => part.lookup);
  const rarest = looked.reduce<Part | undefined>((best, part) => (!best || (part.frequency ?? 1) < (best.frequency ?? 1) ? part : best), undefined);
  const lookups = rarestOnly ? (rarest ? [rarest] : []) : looked;
  return [...parts.filter((part) => !(lookups.includes(part) && part.exact)).map((part) => part.check), ...lookups.map((part) => part.lookup!)];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Escaped `text` with matches wrapped in `<mark>`: the ranges PostgreSQL marked in `marked`
 * (the same text with \u0001…\u0002 around matched words) and every occurrence of `terms`.
 */
export function highlightText(text: string, marked: string | null, terms: string[], fallbackTerms: string[] = []): string {
  const ranges: [number, number][] = [];
  let literal = terms.filter(Boolean);
  if (marked) {
    let plain = '';
    let start = -1;
    const found: [number, number][] = [];
    for (const char of marked) {
      if (char === '\u0001') start = plain.length;
      else if (char === '\u0002') {
        if (start >= 0) found.push([start, plain.length]);
        start = -1;
      } else plain += char;
    }
    if (plain === text) ranges.push(...found);
    else literal = literal.concat(fallbackTerms.filter(Boolean));
  }
  if (literal.length) {
    const pattern = new RegExp(literal.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'giu');
    for (const match of text.matchAll(pattern)) ranges.push([match.index, match.index + match[0].length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [from, to] of ranges) {
    if (to <= at) continue;
    const begin = Math.max(from, at);
    out += escapeHtml(text.slice(at, begin)) + '<mark>' + escapeHtml(text.slice(begin, to)) + '</mark>';
    at = to;
  }
  return out + escapeHtml(text.slice(at));
}

const HEADLINE_OPTIONS = 'StartSel=\u0001, StopSel=\u0002, HighlightAll=true';

/**
 * Sends a Drizzle query now (it would wait to be awaited otherwise). Its failure is still thrown
 * where it is awaited, and is not an unhandled rejection when an earlier await threw first.
 */
function started<T>(query: PromiseLike<T>): Promise<T> {
  const promise = Promise.resolve(query);
  promise.catch(() => undefined);
  return promise;
}

/** The card columns, for the raw statements below (the same the list queries select). */
const cardSelect = sql.join(
  Object.entries(cardColumns).map(([name, column]) => sql`${column} AS ${sql.identifier(name)}`),
  sql`, `,
);

type SearchRow = Omit<CardRow, 'publishedAt'> & { publishedAt: string | Date; markedTitle: string | null; markedSummary: string | null };

const byStars = sql`${projects.starCount} DESC, ${projects.publishedAt} DESC, ${projects.id} DESC`;
const byNewest = sql`${projects.publishedAt} DESC, ${projects.id} DESC`;

/** What the relevance ways read of each match: its id, `rank` (the query's), stars and date. */
const rankingOf = (rank: SQL) => sql`${projects.id}, ${rank} AS rank, ${projects.starCount} AS stars, ${projects.publishedAt} AS published`;

/** The relevance order of `rankingOf`'s rows, and the page of them. */
const byRankPage = (pageSize: Placeholder | number, offset: Placeholder | number) => sql`rank DESC, stars DESC, published DESC, id DESC LIMIT ${pageSize} OFFSET ${offset}`;

/**
 * The relevance of a match: `ts_rank` of the English part (`query`; none without) plus `bonus`,
 * what its CJK runs add (see the header).
 */
const rankOf = (query: SQL | null, bonus: SQL) => (query ? sql`(ts_rank(${projects.searchVector}, ${query}) + ${bonus})` : sql`(${bonus})`);

/** The title matches (`inTitle`), ranked, at most `titleRows` of them: the `titled` of the relevance ways. */
const titledOf = (rank: SQL, inTitle: SQL, titleRows: SQL | number) => sql`titled AS MATERIALIZED (SELECT ${rankingOf(rank)} FROM ${projects} WHERE ${inTitle} LIMIT ${titleRows}),`;

/**
 * The cards of `page` (a statement answering `id, rank` in order), with highlights of `query`
 * (none without) and tags, and `more` columns; `before` are common table expressions `page` uses.
 */
function cardsOf(query: SQL | null, sort: SearchSort | undefined, page: SQL, before: SQL = sql``, more: SQL = sql``): SQL {
  const headline = (column: SQLWrapper) => (query ? sql`ts_headline('english', ${column}, ${query}, ${HEADLINE_OPTIONS})` : sql`NULL`);
  return sql`
    WITH ${before} page AS (${page})
    SELECT ${cardSelect}, page.rank, ${cardTags} AS tags, ${headline(projects.title)} AS "markedTitle", ${headline(projects.summary)} AS "markedSummary"${more}
    FROM page JOIN ${projects} ON ${projects.id} = page.id JOIN ${users} ON ${users.id} = ${projects.ownerId}
    ORDER BY page.rank DESC, ${sort === 'newest' ? byNewest : byStars}`;
}

/** The page of title matches alone, ranked, and their number (`titles`): the `titlesOnly` way. */
const titlesOnlyPage = (query: SQL | null, rank: SQL, inTitle: SQL, titleRows: SQL | number, pageSize: Placeholder | number, offset: Placeholder | number) =>
  cardsOf(query, 'relevance', sql`SELECT id, rank FROM titled ORDER BY ${byRankPage(pageSize, offset)}`, titledOf(rank, inTitle, titleRows), sql`, (SELECT count(*)::int FROM titled) AS titles`);

/**
 * `titlesOnlyPage` for one word (`'sdr':*`, stop words aside), the most common search: the same
 * statement for every such word, so it is built once and parsed and planned once on each
 * connection of the generic-plan pool (finding 14 of docs/performance.md: 0.3-0.55 ms less of
 * PostgreSQL's work a search). It is the statement the search builds otherwise, from the same
 * parts, with three differences:
 * - the status is written in, not sent: the title index holds published projects only, and
 *   PostgreSQL uses it only when it sees that the statement asks for those (sent, the generic
 *   plan read every project: 14.5-18 ms against 1.7 on 10,000 projects); so is the limit of title
 *   matches, the same for every search;
 * - the query is a subquery, made once: PostgreSQL works out `to_tsquery` of a value it sees while
 *   planning, but of a parameter on every row it ranks (0.5 ms more for 545 title matches);
 * - a generic plan does not know the word, so it takes PostgreSQL's default share for `@@`
 *   (0.5 %): few enough to read the title index, which is what a planned statement does when
 *   this way is taken (title matches expected to fill the page and stay under `TITLE_LIMIT`).
 */
const oneWordTitlesPage = preparedOnDemand(
  'search_one_word_titles',
  (db, name, titleLimit: number) => {
    const query = sql`(SELECT to_tsquery('english', ${sql.placeholder('query')}))`;
    const text: TextQuery = { exact: query, rarest: query, indexed: true, frequency: null };
    const inTitle = and(sql`${isListed}`.inlineParams(), ...allParts(titleParts(text, []), false))!;
    return prepareSql<SearchRow & { titles: number }>(
      db,
      name,
      titlesOnlyPage(query, rankOf(query, sql`0`), inTitle, sql.raw(String(titleLimit + 1)), sql.placeholder('pageSize'), sql.placeholder('offset')),
    );
  },
  { plan: 'generic' },
);

/** `project/search`: published projects matching `q`, optionally within a tag, with highlights. */
export async function searchProjects(
  options: {
    q: string;
    tag?: string;
    sort?: SearchSort;
    page: number;
    pageSize: number;
    /** `COUNT_LIMIT` unless given (measurements: a huge one ranks every match). */
    countLimit?: number;
    /** `TITLE_LIMIT` unless given (measurements). */
    titleLimit?: number;
    /** `PROBE_ROWS` unless given (tests, on a small database). */
    probeRows?: number;
  },
  locale: Locale,
): Promise<SearchPage> {
  const db = getDb();
  const parsed = parseQuery(options.q);
  const text = await textQuery(parsed);
  const query = text?.exact ?? null;
  const empty = { list: [], total: 0, totalExact: true, page: options.page, pageSize: options.pageSize };
  if (!text && parsed.cjk.length === 0) return empty;

  const inTag: SQL[] = [];
  if (options.tag) {
    const ids = await tagIdsWithChildren(options.tag);
    inTag.push(sql`${projects.id} IN (SELECT ${projectTags.projectId} FROM ${projectTags} WHERE ${inArray(projectTags.tagId, ids)})`);
  }
  const gramFrequencies = parsed.cjk.length ? await lexemeFrequencies('search_grams') : new Map<string, number>();
  const runs = parsed.cjk.map((run) => ({ run, ...rarestGram(run, gramFrequencies) }));
  const inProject = projectParts(text, runs);
  const where = and(isListed, ...allParts(inProject, false), ...inTag)!;
  // A title match is a project match, unless the query excludes words ("-lora"): then the
  // project is checked too.
  const inTitleParts = titleParts(text, runs);
  const alsoProject = parsed.syntax && text ? [sql`ts_match_vq(${projects.searchVector}, ${text.exact})`] : [];
  const inTitle = and(isListed, ...allParts(inTitleParts, false), ...alsoProject, ...inTag)!;
  const inTitleBig = and(isListed, ...allParts(inTitleParts, true), ...alsoProject, ...inTag)!;
  // The share of projects in the rarest part of the query: what estimates a total beyond the
  // count (null: only PostgreSQL can tell).
  const frequencies = inProject.map((part) => part.frequency);
  const estimates = options.tag || frequencies.includes(null) ? null : Math.min(...(frequencies as number[]));
  // What PostgreSQL estimates best, then: the rarest word, and LIKE on `search_cjk`, whose
  // statistics know the runs (the grams' would multiply their pairs as if independent).
  const estimated = and(
    isListed,
    ...(text ? [sql`${projects.searchVector} @@ ${text.rarest}`] : []),
    ...parsed.cjk.map((run) => sql`${projects.searchCjk} LIKE ${containsPattern(run)}`),
    ...inTag,
  )!;

  const cjkBonus = parsed.cjk.length
    ? sql.join(
        parsed.cjk.map((run) => sql`(CASE WHEN strpos(lower(${projects.title}), ${run.toLowerCase()}) > 0 THEN 1.0 WHEN strpos(lower(${projects.summary}), ${run.toLowerCase()}) > 0 THEN 0.4 ELSE 0.1 END)`),
        sql` + `,
      )
    : sql`0`;
  const rank = rankOf(query, cjkBonus);
  const ranking = rankingOf(rank);
  const relevance = options.sort !== 'newest' && options.sort !== 'stars';
  const offset = (options.page - 1) * options.pageSize;
  const countLimit = options.countLimit ?? COUNT_LIMIT;
  const titleLimit = options.titleLimit ?? TITLE_LIMIT;

  const cardsPage = (page: SQL, before?: SQL, more?: SQL) => cardsOf(query, options.sort, page, before, more);
  const byRank = byRankPage(options.pageSize, offset);

  // The count reads no more than COUNT_LIMIT + 1 matches.
  const capped = (columns: SQL) => sql`capped AS MATERIALIZED (${cappedMatches(columns, where, countLimit)}),
    counted AS (SELECT count(*)::int AS n FROM capped),`;
  const few = sql`(SELECT n FROM counted) <= ${countLimit}`;
  // One word of one lexeme, or one CJK run of one or two characters (its own gram): PostgreSQL's
  // statistics know the share of projects it is in, in the whole project and in the title. When
  // that promises SURELY times the count's limit, the count, which gathers every match from the
  // GIN index first (20-25 ms for a word in 36,000 of a million projects), is left out: the total
  // is the estimate it would have ended in. Likewise the title matches, whose ranking is then
  // that of the most starred ones, as when they are counted beyond TITLE_LIMIT.
  const single = options.tag || parsed.syntax ? undefined : text ? (runs.length === 0 ? text.single : undefined) : runs.length === 1 && [...runs[0]!.run].length <= 2 ? `'${runs[0]!.run}'` : undefined;
  let surelyMany = false;
  let surelyManyTitles = false;
  // The title matches statistics expect, at least and at most (one part only), for the page's way.
  let titlesExpected: { least: number; most: number } | null = null;
  // The total beyond the count, when the probe below measured the query's share.
  let probedTotal: number | null = null;
  if (single) {
    const rowCount = await projectRows();
    const titleFrequencies = await lexemeFrequencies('title_terms');
    surelyMany = surePrefixFrequency(await lexemeFrequencies(text ? 'search_vector' : 'search_grams'), single) * rowCount >= SURELY * (countLimit + 1);
    titlesExpected = { least: surePrefixFrequency(titleFrequencies, single) * rowCount, most: prefixFrequency(titleFrequencies, single) * rowCount };
    surelyManyTitles = surelyMany && titlesExpected.least >= SURELY * (titleLimit + 1);
  } else if (!options.tag && !parsed.syntax && estimates !== null) {
    // Several parts, or a run of three or more characters: statistics bound the matches only from
    // above (the rarest part's share). When even that bound could make them many, the probe
    // measures the share of the whole query instead, and decides as statistics do for one part.
    const rowCount = await projectRows();
    if (estimates * rowCount >= SURELY * (countLimit + 1)) {
      const rows = options.probeRows ?? PROBE_ROWS;
      const probe = { ...(await probeShares(inProject, inTitleParts, rows)), rows };
      surelyMany = probedMany(probe.matches, probe, rowCount, countLimit);
      surelyManyTitles = surelyMany && probedMany(probe.titled, probe, rowCount, titleLimit);
      // Its share is also the better estimate of a total beyond the count: PostgreSQL's would be
      // the rarest part's alone, or the parts' multiplied as if independent.
      if (probe.read >= rows) probedTotal = Math.round((probe.matches / probe.read) * rowCount);
    }
  }
  let count: number;
  let rows: SearchRow[];
  if (!relevance) {
    // "newest" and "stars", exact at any size. The count comes first, in the same statement: the
    // counted rows, sorted, when they are all there are; else the index of the order, read until
    // the page is full (each way read only when its condition on the count holds: PostgreSQL tests
    // it once, before reading). PostgreSQL cannot tell whether several parts are common together,
    // nor how rare a word outside its most common ones is: at 1,000,000 projects it guessed 1,500
    // matches of a word no project has, read the index of the order for 20 of them, and so read
    // every project (9 s) where the count found none in a millisecond.
    const order = options.sort === 'newest' ? byNewest : byStars;
    const ordered = (condition: SQL) => sql`SELECT ${projects.id}, 0 AS rank FROM ${projects} WHERE ${condition} ORDER BY ${order} LIMIT ${options.pageSize} OFFSET ${offset}`;
    const small = options.sort === 'newest' ? sql`published DESC, id DESC` : sql`stars DESC, published DESC, id DESC`;
    // Beyond the count, in the order's index, CJK runs are tested by their check alone: looked up
    // in the grams as well, PostgreSQL multiplied the share of the gram by that of the LIKE as if
    // they were independent, expected 103 of 17,761 matches of 鼓机, and read and sorted all of
    // them (250 ms) instead of reading the index of the order until the page was full (5 ms).
    const textPart = text ? inProject.slice(0, 1) : [];
    const inOrder = and(isListed, ...allParts(textPart, true), ...inProject.slice(textPart.length).map((part) => part.check), ...inTag)!;
    if (surelyMany) {
      rows = (await db.execute<SearchRow>(cardsPage(ordered(inOrder)))).rows;
      count = countLimit + 1;
    } else {
      const page = sql`
        (SELECT id, 0 AS rank FROM capped WHERE ${few} ORDER BY ${small} LIMIT ${options.pageSize} OFFSET ${offset})
        UNION ALL (${ordered(sql`${inOrder} AND NOT ${few}`)})`;
      const result = await db.execute<SearchRow & { n: number }>(sql`
        WITH ${capped(sql`${projects.id}, ${projects.starCount} AS stars, ${projects.publishedAt} AS published`)} whole AS (${cardsPage(page)})
        SELECT counted.n, whole.* FROM counted LEFT JOIN whole ON true
        ORDER BY ${options.sort === 'newest' ? sql`whole."publishedAt" DESC` : sql`whole.stars DESC, whole."publishedAt" DESC`}, whole."internalId" DESC`);
      count = result.rows[0]?.n ?? 0;
      rows = result.rows;
    }
  } else {
    // Relevance: the count, and at the same time, on another connection, the page of a big
    // result. A match in the title outranks any other (see the header), so the title matches are
    // ranked: all of them when there are at most TITLE_LIMIT (read once, counted and ranked
    // together), else the TIER_CANDIDATES (or as many as the page needs) most starred; when they
    // are fewer than that, the most starred of all matches join them. Each branch is read only
    // when its condition on the count of title matches holds. With at most COUNT_LIMIT matches,
    // every match is ranked instead.
    const need = Math.max(TIER_CANDIDATES, offset + options.pageSize);
    const mostStarred = (condition: SQL) => sql`SELECT ${ranking} FROM ${projects} WHERE ${condition} ORDER BY ${byStars} LIMIT ${need}`;
    const titles = sql`(SELECT n FROM titled_count)`;
    const page = sql`
      SELECT id, rank FROM (
        SELECT * FROM titled WHERE ${titles} <= ${titleLimit}
        UNION ALL SELECT * FROM (${mostStarred(inTitleBig)}) AS starred WHERE ${titles} > ${titleLimit}
        UNION ALL SELECT * FROM (${mostStarred(where)}) AS anywhere WHERE ${titles} < ${need}
      ) AS candidates
      GROUP BY id, rank, stars, published ORDER BY ${byRank}`;
    const wholePage = () => cardsPage(page, sql`${titledOf(rank, inTitle, titleLimit + 1)} titled_count AS (SELECT count(*)::int AS n FROM titled),`);
    // When statistics expect the title matches to be at least what the page needs and at most
    // half of TITLE_LIMIT (room for the lexemes they do not list), the page is the first way
    // alone: the title matches, ranked, and their count beside them. The statement is then one
    // way, not three (PostgreSQL planned the other two for 0.4 ms of its 2.5). Statistics count
    // drafts and hidden projects too; should the count say otherwise, the whole statement
    // follows, a second round trip.
    const titlesOnly = !surelyManyTitles && titlesExpected !== null && titlesExpected.least >= need && titlesExpected.most <= titleLimit / 2;
    // Drizzle sends a query when it is awaited: `started` sends this one at once.
    // One word (this way is taken only without CJK runs, a tag or web-search syntax): the
    // statement prepared for it, one for each limit of title matches (on the site TITLE_LIMIT).
    const oneWord = titlesOnly && text?.single !== undefined;
    const paging = started<{ rows: (SearchRow & { titles?: number })[] }>(
      surelyManyTitles && need <= titleLimit
        ? db.execute<SearchRow>(cardsPage(sql`SELECT id, rank FROM (${mostStarred(inTitleBig)}) AS starred GROUP BY id, rank, stars, published ORDER BY ${byRank}`))
        : oneWord
          ? oneWordTitlesPage(String(titleLimit), titleLimit).execute({ query: prefixQuery(parsed.words), pageSize: options.pageSize, offset })
          : titlesOnly
            ? db.execute<SearchRow & { titles: number }>(titlesOnlyPage(query, rank, inTitle, titleLimit + 1, options.pageSize, offset))
            : db.execute<SearchRow>(wholePage()),
    );
    const pageRows = async () => {
      const { rows: found } = await paging;
      const titleCount = found[0]?.titles ?? 0;
      return titlesOnly && (titleCount < need || titleCount > titleLimit) ? (await db.execute<SearchRow>(wholePage())).rows : found;
    };
    count = surelyMany ? countLimit + 1 : await countUpTo(where, countLimit);
    // At most COUNT_LIMIT matches: every match, ranked (the other statement, then unused,
    // finishes on its own).
    rows =
      count > countLimit
        ? await pageRows()
        : (await db.execute<SearchRow>(cardsPage(sql`SELECT id, rank FROM (SELECT ${ranking} FROM ${projects} WHERE ${where}) AS matches ORDER BY ${byRank}`))).rows;
  }
  const { total, totalExact } = await resolveTotal(count, countLimit, () => (probedTotal !== null ? Promise.resolve(probedTotal) : estimateTotal(estimated, estimates)));
  // Drizzle leaves timestamps of raw statements as text.
  const found = rows.filter((row) => row.internalId !== null).map((row) => ({ ...row, publishedAt: new Date(row.publishedAt) }));
  const cards = await toCards(found, locale);
  return {
    list: cards.map((card, index) => ({
      ...card,
      highlight: {
        title: highlightText(card.title, found[index]!.markedTitle, parsed.cjk, parsed.words),
        summary: highlightText(card.summary, found[index]!.markedSummary, parsed.cjk, parsed.words),
      },
    })),
    total,
    totalExact,
    page: options.page,
    pageSize: options.pageSize,
  };
}

/**
 * The plain text search reads for a project: title, summary, description text and tag names (in
 * both languages, so either finds it). Capped so one huge description cannot bloat the index.
 */
export function projectSearchText(parts: { title: string; summary: string; descriptionText: string; tagNames: string[] }): string {
  return [parts.title, parts.summary, parts.descriptionText, ...new Set(parts.tagNames)].join(' ').slice(0, 200_000);
}

/** Projects whose search text is written again in one statement. */
const SEARCH_TEXT_BATCH = 200;

/**
 * Writes again the search text of every project tagged `tagId` (published, hidden or deleted
 * alike: one restored is found by its tags as they are named then), from its content and the
 * names of all its tags as they are now. Staff renaming or translating a tag, or merging one into
 * it, would otherwise leave its projects found only by the names they were published with. Runs
 * in the job queue (`searchText`), a batch at a time; answers how many projects were written.
 */
export async function refreshTagSearchText(tagId: number): Promise<number> {
  const db = getDb();
  let after = 0;
  let written = 0;
  for (;;) {
    const { rows } = await db.execute<{ id: number; title: string; summary: string; html: string; names: string[] }>(sql`
      SELECT p.id, p.title, p.summary, p.description_html AS html,
        coalesce((SELECT array_agg(name ORDER BY pt.tag_id, n.position)
          FROM ${projectTags} pt JOIN ${tags} t ON t.id = pt.tag_id, unnest(ARRAY[t.name_en, t.name_zh]) WITH ORDINALITY AS n(name, position)
          WHERE pt.project_id = p.id), '{}') AS names
      FROM ${projects} p
      WHERE p.id IN (SELECT project_id FROM ${projectTags} WHERE tag_id = ${tagId}) AND p.id > ${after}
      ORDER BY p.id LIMIT ${SEARCH_TEXT_BATCH}`);
    if (rows.length === 0) return written;
    const texts = rows.map((row) => projectSearchText({ title: row.title, summary: row.summary, descriptionText: htmlToText(row.html), tagNames: row.names }));
    await db.execute(sql`
      UPDATE ${projects} SET search_text = fresh.text
      FROM unnest(${sql.param(rows.map((row) => row.id))}::int[], ${sql.param(texts)}::text[]) AS fresh(id, text)
      WHERE ${projects.id} = fresh.id`);
    written += rows.length;
    after = rows.at(-1)!.id;
  }
}
