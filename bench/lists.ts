/**
 * List pages for `npm run bench` and `npm run bench:search`, on the database of 100,000 projects
 * search is measured on: the time to render `/newest`, `/recommend` (each alone, within a parent tag
 * and within a tag) and the hot list at page 1, a middle page and a deep one, and a member's projects, one request at a time after a warm-up. The server runs
 * with `PAGE_CACHE=0`, so every request is rendered (a guest would mostly be served from memory).
 * Against a running server (start it with `PAGE_CACHE=0`): `node bench/lists.ts http://127.0.0.1:4402`.
 */
import { percentile } from './stats.ts';

const REQUESTS = 20;


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
  // Each list at page 1, a middle page and a deep one (about 95 % of the way down, so an estimated
  // total never points past the end): the pages a guest reaches by the pager or by editing the URL.
  const depths = async (sort: string, tag?: string): Promise<number[]> => {
    const answer = (await (await fetch(`${baseUrl}/api/project/list?sort=${sort}&pageSize=24${tag ? `&tag=${tag}` : ''}`)).json()) as { result: { total: number } };
    const last = Math.max(1, Math.ceil(answer.result.total / 24));
    return [...new Set([1, Math.max(1, Math.round(last / 2)), Math.max(1, Math.floor(last * 0.95))])];
  };
  const pages: [string, string][] = [];
  for (const [sort, path] of [['newest', '/newest'], ['recommend', '/recommend']] as const) {
    for (const tag of [undefined, 'microcontrollers', 'esp32']) {
      for (const page of await depths(sort, tag)) {
        const query = [tag ? `tag=${tag}` : '', page > 1 ? `page=${page}` : ''].filter(Boolean).join('&');
        pages.push([`\`${path}${query ? `?${query}` : ''}\`${tag === 'microcontrollers' ? ' (a parent tag)' : ''}`, `${path}${query ? `?${query}` : ''}`]);
      }
    }
  }
  for (const page of await depths('hot')) pages.push([`\`GET /api/project/list?sort=hot\` page ${page.toLocaleString('en-US')}`, `/api/project/list?sort=hot&page=${page}&pageSize=24`]);
  for (const page of await depths('newest')) pages.push([`\`GET /api/project/list\` page ${page.toLocaleString('en-US')}`, `/api/project/list?sort=newest&page=${page}&pageSize=24`]);
  if (member) pages.push(["a member's projects (`/user/{url}`)", `/user/${member}`]);
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
