/**
 * The walk of issue 26, point 6, for `npm run bench`: a crawler fetches distinct addresses the
 * page cache has not seen — every list page of `/newest` and `/recommend`, alone and within each
 * tag, every member's page, then project pages until the count is reached — in a shuffled order,
 * a few at a time, as a search engine walks a site. Reports the rate, p50/p99 and errors, and the
 * server's peak resident memory (`VmRSS` of its process, sampled every 100 ms) against
 * `PAGE_CACHE_MB` plus a stated margin: the cache must keep its pages within its budget however
 * many it is shown.
 *
 * The walk is made as Googlebot: the cache keys crawlers apart from browsers, so even the few
 * pages the rest of the bench read as a browser are new to it.
 */
import { readFileSync } from 'node:fs';
import { metOrMissed, percentile } from './stats.ts';

/** How many requests the walk keeps in flight: a polite crawler's few, not a load test's crowd. */
const CONCURRENCY = 8;
/** The issue's target p99 for the walk. */
const TARGET_P99_MS = 100;
/**
 * What the server may hold besides its size at start (Node, V8 and the built site's code, loaded
 * by then) and the page cache's budget (`PAGE_CACHE_MB` for guests' pages and a quarter of it again
 * for members'): the heap renders in flight need, garbage not yet collected, database connections.
 * Chosen before the first walk was measured, not fitted to its result; the report shows the memory
 * before the walk too, so the margin can be judged.
 */
export const RSS_MARGIN_MB = 256;

const CRAWLER_HEADERS = {
  'accept-language': 'en-US',
  'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

/** The server's resident memory in MB, from `/proc` (Linux), or null where that cannot be read. */
export function residentMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

interface Card {
  id: string;
  owner: { url: string };
}

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`walk: ${url} answered ${response.status}`);
  return ((await response.json()) as { result: T }).result;
}

function slugsOf(nodes: { slug: string; children: unknown[] }[]): string[] {
  return nodes.flatMap((node) => [node.slug, ...slugsOf(node.children as { slug: string; children: unknown[] }[])]);
}

/** A fixed shuffle (the same order every run), so kinds of pages are interleaved as a crawler meets them. */
function shuffle<T>(items: T[]): T[] {
  let state = 26;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** `count` distinct page addresses of the server at `base`, with how many of each kind. */
async function addresses(base: string, count: number): Promise<{ paths: string[]; kinds: string }> {
  const lists: string[] = [];
  const pagesOf = (total: number) => Math.max(1, Math.ceil(total / 24));
  const tags = slugsOf(await json<{ slug: string; children: unknown[] }[]>(`${base}/api/tag/list`));
  for (const tag of [undefined, ...tags]) {
    const query = tag ? `tag=${encodeURIComponent(tag)}&` : '';
    const { total } = await json<{ total: number }>(`${base}/api/project/list?${query}pageSize=24`);
    for (const list of ['/newest', '/recommend']) {
      for (let page = 1; page <= pagesOf(total); page += 1) lists.push(page === 1 && !tag ? list : `${list}?${query}page=${page}`);
    }
  }
  const projects: string[] = [];
  const members = new Set<string>();
  for (let page = 1; projects.length < count; page += 1) {
    const { list } = await json<{ list: Card[] }>(`${base}/api/project/list?sort=newest&page=${page}&pageSize=50`);
    if (list.length === 0) break;
    for (const card of list) {
      projects.push(`/d-${card.id}`);
      members.add(`/user/${card.owner.url}`);
    }
  }
  // At least half of the walk is project pages (most of a site's addresses), the rest lists and
  // members, cut down evenly (shuffled first) when there are more of them than that.
  const others = shuffle([...lists, ...members]).slice(0, Math.max(Math.floor(count / 2), count - projects.length));
  const paths = shuffle([...others, ...projects.slice(0, count - others.length)]);
  const tally = (prefix: string) => paths.filter((path) => path.startsWith(prefix)).length.toLocaleString('en-US');
  const kinds = `${tally('/d-')} project pages, ${tally('/newest')} of \`/newest\` and ${tally('/recommend')} of \`/recommend\` (each page of each list, alone and within each of ${tags.length} tags), ${tally('/user/')} member pages`;
  return { paths, kinds };
}


/** Walks `count` new addresses of the server at `base` (process `pid`); answers a Markdown section. */
export async function benchWalk(base: string, options: { pid: number; count: number; pageCacheMb: number; rssAtStart: number | null }): Promise<string> {
  const { paths, kinds } = await addresses(base, options.count);
  const states = new Map<string, number>();
  const failures = new Map<string, number>();
  const times: number[] = [];
  // The same times by kind of page, to tell which of them makes the tail.
  const kindOf = (path: string) => (path.startsWith('/d-') ? 'project pages' : path.startsWith('/user/') ? 'member pages' : path.startsWith('/newest') ? '`/newest`' : '`/recommend`');
  const timesByKind = new Map<string, number[]>();
  const rssBefore = residentMb(options.pid);
  let rssPeak = rssBefore ?? 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, residentMb(options.pid) ?? 0);
  }, 100);
  let next = 0;
  const started = performance.now();
  const crawler = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      const sent = performance.now();
      try {
        const response = await fetch(`${base}${path}`, { headers: CRAWLER_HEADERS, redirect: 'manual' });
        await response.arrayBuffer();
        const took = performance.now() - sent;
        times.push(took);
        const kind = kindOf(path);
        if (!timesByKind.has(kind)) timesByKind.set(kind, []);
        timesByKind.get(kind)!.push(took);
        const state = response.headers.get('x-page-cache') ?? 'none';
        states.set(state, (states.get(state) ?? 0) + 1);
        if (!response.ok) failures.set(String(response.status), (failures.get(String(response.status)) ?? 0) + 1);
      } catch {
        failures.set('error', (failures.get('error') ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, crawler));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, residentMb(options.pid) ?? 0);
  times.sort((a, b) => a - b);
  const errors = [...failures.values()].reduce((sum, n) => sum + n, 0);
  const p99 = percentile(times, 99);
  const bound = Math.round((options.rssAtStart ?? 0) + options.pageCacheMb * 1.25 + RSS_MARGIN_MB);
  const mb = (value: number | null) => (value === null ? '?' : Math.round(value).toLocaleString('en-US'));
  const served = [...states].map(([state, n]) => `${state} ${n.toLocaleString('en-US')}`).join(', ');
  const byKind = [...timesByKind]
    .map(([kind, took]) => {
      took.sort((a, b) => a - b);
      return `${kind} ${Math.round(percentile(took, 50))} / ${Math.round(percentile(took, 99))} ms`;
    })
    .join(', ');
  return [
    `${paths.length.toLocaleString('en-US')} distinct addresses the cache had not seen (${kinds}), in a fixed shuffled order, ${CONCURRENCY} at a time, as Googlebot (crawlers are cached apart from browsers). Served as (\`X-Page-Cache\`): ${served}. The server's memory is its process's \`VmRSS\`, sampled every 100 ms; the bound is the server's size at start (Node and the built site's code) plus the page cache's budget (\`PAGE_CACHE_MB\`, ${options.pageCacheMb}, for guests' pages and a quarter of it again for members') plus a margin of ${RSS_MARGIN_MB} MB for renders in flight, garbage not yet collected and database connections; "at start" is just after the server answered \`/healthz\`, "before the walk" after the load tests above (what they grew is not all given back), and the growth is the peak less that.`,
    '',
    '| | req/s | p50 ms | p99 ms | errors | server RSS at start, MB | before the walk, MB | peak in the walk, MB | growth in the walk, MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| measured | ${Math.round(paths.length / seconds).toLocaleString('en-US')} | ${Math.round(percentile(times, 50))} | ${Math.round(p99)} | ${errors}${errors ? ` (${[...failures].map(([what, n]) => `${what} × ${n}`).join(', ')})` : ''} | ${mb(options.rssAtStart)} | ${mb(rssBefore)} | ${mb(rssPeak)} | ${rssBefore === null ? '?' : mb(rssPeak - rssBefore)} |`,
    `| target (issue 26) | | | ≤ ${TARGET_P99_MS} | 0 | | | ≤ ${bound} | |`,
    `| | | | ${metOrMissed(p99 <= TARGET_P99_MS)} | ${metOrMissed(errors === 0)} | | | ${rssBefore === null ? 'not measured' : metOrMissed(rssPeak <= bound)} | |`,
    '',
    `p50 / p99 by kind of page: ${byKind}.`,
  ].join('\n');
}
