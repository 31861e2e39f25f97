/**
 * `project/search`: English by PostgreSQL full-text search (stemming, ranking, prefix matches
 * for part numbers), Chinese (and other CJK) by substring through the trigram index, mixed
 * queries by requiring both, with highlighted titles and summaries.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Locale } from '../../lib/i18n.ts';
import { getDb } from '../db/client.ts';
import { projects, projectTags, users } from '../db/schema/index.ts';
import { cardColumns, isPublished, toCards, type Page, type ProjectCard } from './cards.ts';
import { tagIdsWithChildren } from './tags.ts';

export type SearchSort = 'relevance' | 'newest' | 'stars';

export interface SearchResult extends ProjectCard {
  /** Title and summary as HTML: escaped text with the matches in `<mark>`. */
  highlight: { title: string; summary: string };
}

export interface ParsedQuery {
  /** Latin (and other non-CJK) words, for full-text search. */
  words: string[];
  /** Runs of CJK characters, for substring search. */
  cjk: string[];
  /** The non-CJK text when it uses web-search syntax (quotes, `-word`, `or`), else null. */
  syntax: string | null;
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
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

/** The document the trigram index covers: exactly the indexed expression, so it is used. */
const trigramDocument = sql`lower(${projects.title} || ' ' || ${projects.summary} || ' ' || ${projects.searchText})`;

/** `%text%` for LIKE, with the pattern characters escaped. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A CJK run as a substring condition. From three characters the trigram index answers it: the
 * pattern is matched against exactly the indexed (lower-cased) expression — with LIKE, since both
 * sides are already lower case, which rechecks faster than ILIKE and uses the same index. One or
 * two characters have no trigram, so every row is read anyway: then a plain `strpos` on the
 * columns (CJK has no case) costs a tenth of lower-casing the whole document.
 */
function cjkCondition(run: string): SQL {
  if ([...run].length >= 3) return sql`${trigramDocument} LIKE ${containsPattern(run)}`;
  return sql`(strpos(${projects.searchText}, ${run}) > 0 OR strpos(${projects.title}, ${run}) > 0 OR strpos(${projects.summary}, ${run}) > 0)`;
}

/** The tsquery of the non-CJK part: web-search syntax as typed, else every word as a prefix. */
function textQuery(parsed: ParsedQuery): SQL | null {
  if (parsed.syntax) return sql`websearch_to_tsquery('english', ${parsed.syntax})`;
  if (parsed.words.length === 0) return null;
  return sql`to_tsquery('english', ${parsed.words.map((word) => `${word}:*`).join(' & ')})`;
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

/** `project/search`: published projects matching `q`, optionally within a tag, with highlights. */
export async function searchProjects(
  options: { q: string; tag?: string; sort?: SearchSort; page: number; pageSize: number },
  locale: Locale,
): Promise<Page<SearchResult>> {
  const db = getDb();
  const parsed = parseQuery(options.q);
  let query = textQuery(parsed);
  if (query) {
    // A query of stop words only ("the") becomes empty: treat it as no text condition.
    const [row] = await db.select({ n: sql<number>`numnode(${query})` }).from(sql`(SELECT 1) AS one`);
    if (!row || row.n === 0) query = null;
  }
  const empty = { list: [], total: 0, page: options.page, pageSize: options.pageSize };
  if (!query && parsed.cjk.length === 0) return empty;

  const conditions: SQL[] = [];
  if (query) conditions.push(sql`${projects.searchVector} @@ ${query}`);
  for (const run of parsed.cjk) conditions.push(cjkCondition(run));
  if (options.tag) {
    const ids = await tagIdsWithChildren(options.tag);
    conditions.push(sql`${projects.id} IN (SELECT ${projectTags.projectId} FROM ${projectTags} WHERE ${inArray(projectTags.tagId, ids)})`);
  }
  const where = and(isPublished, ...conditions);

  const cjkBonus = parsed.cjk.length
    ? sql.join(
        parsed.cjk.map((run) => sql`(CASE WHEN strpos(lower(${projects.title}), ${run.toLowerCase()}) > 0 THEN 1.0 WHEN strpos(lower(${projects.summary}), ${run.toLowerCase()}) > 0 THEN 0.4 ELSE 0.1 END)`),
        sql` + `,
      )
    : sql`0`;
  const rank = query ? sql`(ts_rank(${projects.searchVector}, ${query}) + ${cjkBonus})` : sql`(${cjkBonus})`;
  const orderBy: SQL[] =
    options.sort === 'newest'
      ? [desc(projects.publishedAt), desc(projects.id)]
      : options.sort === 'stars'
        ? [desc(projects.starCount), desc(projects.publishedAt), desc(projects.id)]
        : [sql`${rank} DESC`, desc(projects.starCount), desc(projects.publishedAt), desc(projects.id)];

  // One pass: the total comes with the page (a window count) instead of a second scan.
  const rows = await db
    .select({
      ...cardColumns,
      total: sql<number>`(count(*) OVER ())::int`,
      markedTitle: query ? sql<string>`ts_headline('english', ${projects.title}, ${query}, ${HEADLINE_OPTIONS})` : sql<null>`NULL`,
      markedSummary: query ? sql<string>`ts_headline('english', ${projects.summary}, ${query}, ${HEADLINE_OPTIONS})` : sql<null>`NULL`,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(where)
    .orderBy(...orderBy)
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && options.page > 1) {
    [{ n: total } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(projects).where(where);
  }
  const cards = await toCards(rows, locale);
  return {
    list: cards.map((card, index) => ({
      ...card,
      highlight: {
        title: highlightText(card.title, rows[index]!.markedTitle, parsed.cjk, parsed.words),
        summary: highlightText(card.summary, rows[index]!.markedSummary, parsed.cjk, parsed.words),
      },
    })),
    total,
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
