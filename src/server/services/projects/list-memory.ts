/**
 * What list pages read that changes only with a write purging `lists`, remembered between
 * requests where the server keeps pages (`rememberListReads`): the tag rows every list page reads
 * (tags.ts), and how many projects a list has, all published ones or a tag's, whatever its order
 * (`queryCardPage`). Each statement sent costs the server's CPU to wake PostgreSQL
 * (docs/performance.md, finding 9), and counting a tag's list cost PostgreSQL more than rendering
 * its page cost Node (finding 15). Every write that changes them purges the lists (staff's tag
 * tools; a project published, edited, deleted, hidden or restored), here and on every instance,
 * and the purge forgets them; so does the page cache, which keeps those lists' pages just as long.
 * Kept on `globalThis` like the purge bus and the page anchors: one memory per process, whichever
 * bundle loads this.
 */
import { hearsPurges, onPagePurge, pageTags } from '../../page-cache/tags.ts';

interface ListReads {
  on: boolean;
  listening: boolean;
  kept: Map<string, { at: number; value: Promise<unknown> }>;
}
const memory: ListReads = ((globalThis as { [key: symbol]: ListReads })[Symbol.for('copperhub.listReads')] ??= { on: false, listening: false, kept: new Map() });
/**
 * Answers remembered at most (three for each tag: its rows, the ids it covers, its count): a
 * crawler asking for every tag's page cannot grow it without end. Past it all are forgotten and
 * read again as asked, as after a purge.
 */
const MAX_KEPT = 4000;
/** And for ten minutes at most, as the page anchors: what a write no purge announces leaves behind. */
const KEPT_MS = 600_000;

/**
 * Remembers list reads between requests (on), or reads them on every request (off, the default).
 * The server turns it on with its page cache: both learn of writes only by purges, and where no
 * page is kept (tests writing straight into the database) nothing is remembered either.
 */
export function rememberListReads(on: boolean): void {
  memory.on = on;
  memory.kept.clear();
  if (!on || memory.listening) return;
  memory.listening = true;
  onPagePurge((purged) => {
    if (purged.includes(pageTags.lists) || purged.includes('*')) memory.kept.clear();
  });
}

/** `load()`'s answer under `key`, remembered until the lists are purged (a failure is not kept). */
export function rememberedUntilListsChange<T>(key: string, load: () => Promise<T>): Promise<T> {
  // An instance that cannot hear purges keeps nothing, as its page cache does not.
  if (!memory.on || !hearsPurges()) return load();
  const kept = memory.kept.get(key);
  if (kept && Date.now() - kept.at < KEPT_MS) return kept.value as Promise<T>;
  if (memory.kept.size >= MAX_KEPT) memory.kept.clear();
  const loading = load();
  const entry = { at: Date.now(), value: loading };
  memory.kept.set(key, entry);
  loading.catch(() => {
    if (memory.kept.get(key) === entry) memory.kept.delete(key);
  });
  return loading;
}
