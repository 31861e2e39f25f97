/**
 * Page anchors: deep pages of the newest-first lists at the cost of page 1, with page numbers kept.
 *
 * OFFSET reads and throws away every row before a page, so `/newest?page=2000` read 40,000 rows.
 * A keyset query (`WHERE (published_at, id) < (x, y) ORDER BY published_at DESC, id DESC LIMIT n`)
 * starts where an index points, but needs the sort key of the row before the page, which a page
 * number does not carry. So every `ANCHOR_EVERY` rows of a list the sort key of the last row is
 * kept here (found once, by one index scan that continues from the last anchor known), and a page
 * starts from the anchor at or before its offset, skipping fewer than `ANCHOR_EVERY` rows.
 *
 * The newest order changes only when a project is published, deleted, hidden or restored, and each
 * of those purges the page cache's `lists` tag (here and, through NOTIFY, on every instance): that
 * purge drops the anchors too. A write no purge announces (a row changed by hand) is bounded by the
 * same ten minutes the page cache trusts a page it rendered.
 *
 * The hot and recommend orders (`hotOrder`, `recommendOrder`) keep anchors the same way. They also
 * move as stars, likes and comments come, which no purge announces; between two scans a deep page
 * then starts from where its anchor was, so a card that climbed past the anchor meanwhile can show
 * twice or be skipped at a page boundary, as with OFFSET when the order moves between two page
 * views, and for no longer than the page cache serves such a page unchanged anyway. At 1,000,000
 * projects OFFSET read the hot list's page 40,000 in over a second (see docs/performance.md).
 */
import { and, desc, sql, type SQL } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { projects } from '../../db/schema/index.ts';
import { onPagePurge, pageTags } from '../../page-cache/tags.ts';

/** Rows between two anchors: the most a deep page reads and does not show. */
export const ANCHOR_EVERY = 100;

/** How long anchors are trusted without a purge (the page cache's longest trust in a render). */
const TRUSTED_MS = 10 * 60_000;
/** Lists with anchors kept at once (one per tag filter at most): past it, all are forgotten. */
const MAX_LISTS = 2000;

/**
 * The sort key of one row: its order's columns before the id as PostgreSQL's text (null stays
 * null), since a JavaScript date would drop a time's microseconds and the keyset would then skip or
 * repeat rows; `float8` text is exact as well.
 */
export interface SortKey {
  values: (string | null)[];
  id: number;
}

/** A list order that pages by keyset: its `ORDER BY`, its sort key's columns, the rows after a key. */
export interface KeysetOrder {
  orderBy: SQL[];
  /** The sort key's columns before the id, each read as text. */
  keys: SQL[];
  /** The rows after `key` in this order. */
  after: (key: SortKey) => SQL;
  /** Its rows change places without a purge of the lists (stars, likes and comments move the hot score). */
  shifts?: true;
}

interface Anchors {
  /** `keys[i]`: the sort key of the row at offset `(i + 1) * ANCHOR_EVERY - 1`. */
  keys: SortKey[];
  /** The list was read to its end: no anchor beyond `keys`. */
  complete: boolean;
  /** The number of the list's rows, when read to its end (see `extendAnchors`). */
  length?: number;
  foundAt: number;
}

/** Kept on `globalThis` like the purge bus: one set of anchors per process, whichever bundle loads this. */
interface AnchorState {
  lists: Map<string, Anchors>;
  /** Anchors being found, by list: the requests that need them meanwhile wait for the same scan. */
  finding: Map<string, Promise<Anchors | undefined>>;
  generation: number;
  listening: boolean;
}
const state: AnchorState = ((globalThis as { [key: symbol]: AnchorState })[Symbol.for('copperhub.pageAnchors')] ??= { lists: new Map(), finding: new Map(), generation: 0, listening: false });

function listenForPurges(): void {
  if (state.listening) return;
  state.listening = true;
  onPagePurge((tags) => {
    if (!tags.includes(pageTags.lists) && !tags.includes('*')) return;
    state.generation += 1;
    state.lists.clear();
  });
}

/** The newest order, as `ORDER BY`. */
export const newestOrder = (): SQL[] => [desc(projects.publishedAt), desc(projects.id)];

/** Newest first (`projects_published_idx`). */
export const newestKeyset: KeysetOrder = {
  orderBy: newestOrder(),
  keys: [sql`${projects.publishedAt}::text`],
  after: (key) => sql`(${projects.publishedAt}, ${projects.id}) < (${key.values[0]}::timestamptz, ${key.id})`,
};

/** By the stored hot score (`projects_hot_idx`). */
export const hotKeyset: KeysetOrder = {
  shifts: true,
  orderBy: [desc(projects.hotScore), desc(projects.id)],
  keys: [sql`${projects.hotScore}::text`],
  after: (key) => sql`(${projects.hotScore}, ${projects.id}) < (${key.values[0]}::float8, ${key.id})`,
};

/**
 * Curated first by rank, then the rest by hot score (`projects_recommend_idx`). After an anchor
 * past the curated ones the condition is `recommend_rank IS NULL` and the hot keyset, which that
 * index reads in order.
 */
export const recommendKeyset: KeysetOrder = {
  shifts: true,
  orderBy: [sql`${projects.recommendRank} ASC NULLS LAST`, desc(projects.hotScore), desc(projects.id)],
  keys: [sql`${projects.recommendRank}::text`, sql`${projects.hotScore}::text`],
  after: (key) => {
    const [rank, hot] = key.values;
    const rest = sql`(${projects.hotScore}, ${projects.id}) < (${hot}::float8, ${key.id})`;
    return rank === null
      ? sql`(${projects.recommendRank} IS NULL AND ${rest})`
      : sql`(${projects.recommendRank} > ${rank}::int OR ${projects.recommendRank} IS NULL OR (${projects.recommendRank} = ${rank}::int AND ${rest}))`;
  },
};

/** The keyset condition of the newest order after `key`. */
export const afterKey = (key: SortKey): SQL => newestKeyset.after(key);

/**
 * Where a page at `offset` of the newest-first list `listKey` (its rows: `condition`) starts: after
 * the anchor `after`, skipping `skip` rows; null when the page is near the top (plain OFFSET is as
 * cheap) or the list is shorter than one anchor's span.
 */
export async function findPageStart(listKey: string, condition: SQL, offset: number, order: KeysetOrder = newestKeyset): Promise<{ after: SortKey; skip: number } | null> {
  const index = Math.floor(offset / ANCHOR_EVERY) - 1;
  if (index < 0) return null;
  listenForPurges();
  let anchors = state.lists.get(listKey);
  if (anchors && Date.now() - anchors.foundAt > TRUSTED_MS) anchors = undefined;
  if (!anchors || (anchors.keys.length <= index && !anchors.complete)) {
    // Many visitors of a deep page at once (a crawler, right after a purge) share one scan.
    const finding = state.finding.get(listKey);
    anchors = finding ? await finding : undefined;
    if (!anchors || (anchors.keys.length <= index && !anchors.complete)) {
      const known = state.lists.get(listKey);
      const scan = extendAnchors(listKey, condition, order, known && Date.now() - known.foundAt <= TRUSTED_MS ? known : undefined, index);
      state.finding.set(listKey, scan);
      try {
        anchors = await scan;
      } finally {
        if (state.finding.get(listKey) === scan) state.finding.delete(listKey);
      }
    }
  }
  // A page past the end of a list read to its end (linked from an estimated total, which can be
  // above the truth) starts from the last anchor, fewer than ANCHOR_EVERY rows from the end: it
  // reads those and finds nothing, where OFFSET read the whole list (80 ms for 9,000 projects).
  const at = anchors?.complete ? Math.min(index, anchors.keys.length - 1) : index;
  const key = anchors?.keys[at];
  return key ? { after: key, skip: offset - (at + 1) * ANCHOR_EVERY } : null;
}

/**
 * The number of rows of the list `listKey` when its anchors were found by reading it to its end
 * (and are still trusted): an exact total where a long list's is otherwise PostgreSQL's estimate,
 * which can be above or below the truth (its last pages then numbered wrongly). Undefined when
 * its anchors are not known to its end.
 */
export function knownListLength(listKey: string): number | undefined {
  const anchors = state.lists.get(listKey);
  return anchors?.complete && Date.now() - anchors.foundAt <= TRUSTED_MS ? anchors.length : undefined;
}

/**
 * Reads on from the last anchor known to the one at `index`, in one index scan: the sort keys of
 * every `ANCHOR_EVERY`-th row. Anchors found while a purge came are used by no one.
 */
async function extendAnchors(listKey: string, condition: SQL, order: KeysetOrder, known: Anchors | undefined, index: number): Promise<Anchors | undefined> {
  const generation = state.generation;
  const keys = known?.keys ?? [];
  const from = keys.at(-1);
  const wanted = (index + 1 - keys.length) * ANCHOR_EVERY;
  const where = from ? and(condition, order.after(from))! : condition;
  const columns = Object.fromEntries(order.keys.map((key, i) => [`k${i}`, sql<string | null>`${key}`.as(`k${i}`)]));
  const over = sql`OVER (ORDER BY ${sql.join(order.orderBy, sql`, `)})`;
  const numbered = getDb()
    .select({
      ...columns,
      id: projects.id,
      n: sql<number>`row_number() ${over}`.as('n'),
      // The list's last row, which no row follows: the scan reads one row past the limit for it.
      // (`count(*) OVER ()` would read the whole rest of the list before the limit applies.)
      last: sql<boolean>`lead(${projects.id}) ${over} IS NULL`.as('last'),
    })
    .from(projects)
    .where(where)
    .orderBy(...order.orderBy)
    .limit(wanted)
    .as('numbered');
  const found = await getDb()
    .select({ keys: sql<(string | null)[]>`ARRAY[${sql.join(order.keys.map((_, i) => sql.identifier(`k${i}`)), sql`, `)}]::text[]`, id: numbered.id, n: numbered.n, last: numbered.last })
    .from(numbered)
    .where(sql`${numbered.n} % ${ANCHOR_EVERY} = 0 OR ${numbered.last}`)
    .orderBy(numbered.n);
  const end = found.find((row) => row.last);
  // Read to its end: its last row came, or no row follows the last anchor known.
  const complete = end !== undefined || found.length === 0;
  // Its length counts the rows before the last anchor known as that anchor's place says: an order
  // whose rows change places unannounced (`shifts`) may have moved them since, so there only a
  // scan from the list's top tells it.
  const length = complete && (!order.shifts || !from) ? keys.length * ANCHOR_EVERY + Number(end?.n ?? 0) : undefined;
  const anchors: Anchors = {
    keys: [...keys, ...found.filter((row) => Number(row.n) % ANCHOR_EVERY === 0).map((row) => ({ values: row.keys, id: row.id }))],
    complete,
    ...(length !== undefined ? { length } : {}),
    foundAt: known?.foundAt ?? Date.now(),
  };
  if (state.generation !== generation) return undefined;
  if (state.lists.size >= MAX_LISTS) state.lists.clear();
  state.lists.set(listKey, anchors);
  return anchors;
}
