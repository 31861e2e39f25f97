/**
 * List pages for `npm run bench` and `npm run bench:search`, on the database of 100,000 projects
 * search is measured on: the time to render `/newest`, a tag page, `/recommend`, the hot list,
 * a deep page and a member's projects, one request at a time after a warm-up. The server runs
 * with `PAGE_CACHE=0`, so every request is rendered (a guest would mostly be served from memory).
 * Against a running server (start it with `PAGE_CACHE=0`): `node bench/lists.ts http://127.0.0.1:4402`.
 */

const REQUESTS = 20;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** The total a page or an answer states: "About 100000 projects", or the API's `total`. */
function statedTotal(body: string): string {
  if (body.startsWith('{')) {
    const result = (JSON.parse(body) as { result?: { total: number; totalExact?: boolean } }).result;
    return result ? `${result.totalExact === false ? 'about ' : ''}${result.total}` : '?';
  }
  return /data-testid="list-total"[^>]*>([^<]*)</.exec(body)?.[1] ?? '—';
}

async function measure(baseUrl: string, path: string): Promise<{ p50: number; p95: number; max: number; total: string; errors: number }> {
  const headers = { 'accept-language': 'en-US', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36' };
  let total = '';
  let errors = 0;
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 3; i += 1) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${path}`, { headers });
    const body = await response.text();
    if (i >= 3) times.push(performance.now() - started);
    if (!response.ok) errors += 1;
    total = statedTotal(body);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) ?? 0, total, errors };
}

/** Measures the list pages of the server at `baseUrl` (page cache off) and answers a Markdown table. */
export async function benchLists(baseUrl: string): Promise<string> {
  const newest = (await (await fetch(`${baseUrl}/api/project/list?sort=newest&pageSize=1`)).json()) as { result: { list: { owner: { url: string } }[] } };
  const member = newest.result.list[0]?.owner.url;
  const pages: [string, string][] = [
    ['`/newest`', '/newest'],
    ['`/newest?tag=microcontrollers` (a parent tag)', '/newest?tag=microcontrollers'],
    ['`/newest?tag=esp32`', '/newest?tag=esp32'],
    ['`/recommend`', '/recommend'],
    ['`/recommend?tag=microcontrollers`', '/recommend?tag=microcontrollers'],
    ['`GET /api/project/list?sort=hot`', '/api/project/list?sort=hot&pageSize=24'],
    ['`/newest?page=100`', '/newest?page=100'],
    // Deep pages: the newest order starts from page anchors (src/server/services/projects/page-anchors.ts);
    // hot still reads by OFFSET (its order moves with stars and views), for comparison.
    ['`/newest?page=2000`', '/newest?page=2000'],
    ['`GET /api/project/list` page 1', '/api/project/list?sort=newest&page=1&pageSize=20'],
    ['`GET /api/project/list` page 2,000', '/api/project/list?sort=newest&page=2000&pageSize=20'],
    ['`GET /api/project/list?sort=hot` page 2,000 (OFFSET)', '/api/project/list?sort=hot&page=2000&pageSize=20'],
    ...(member ? ([["a member's projects (`/user/{url}`)", `/user/${member}`]] as [string, string][]) : []),
  ];
  const rows = [];
  for (const [name, path] of pages) rows.push({ name, ...(await measure(baseUrl, path)) });
  const ms = (value: number) => value.toFixed(1);
  return [
    `Rendered per request (\`PAGE_CACHE=0\`), one request at a time, ${REQUESTS} after 3 warm-up requests per page; "total" is what the page says.`,
    '',
    '| page | p50 ms | p95 ms | max ms | total | errors |',
    '|---|---:|---:|---:|---|---:|',
    ...rows.map((row) => `| ${row.name} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.max)} | ${row.total} | ${row.errors} |`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2];
  if (!base?.startsWith('http')) {
    console.error('usage: node bench/lists.ts http://127.0.0.1:PORT (a server started with PAGE_CACHE=0)');
    process.exit(2);
  }
  console.log(await benchLists(base));
}
