/**
 * Sitemap generation at scale: `DATA_DIR=<a database seeded with npm run seed -- --projects 100000>
 * node bench/sitemaps.ts` (or with `DATABASE_URL`). Times the index and each sitemap it lists,
 * several runs each after one warm-up, and prints a Markdown table: milliseconds (median, max),
 * addresses, bytes and SQL statements per sitemap.
 */
import { getConfig } from '../src/server/config.ts';
import { queryCount, startDatabase } from '../src/server/db/client.ts';
import { buildSitemap, buildSitemapIndex, parseSitemapName } from '../src/server/services/site/index.ts';

const RUNS = 5;
const origin = 'https://copperhub.example';
const database = await startDatabase({ dataDir: getConfig().dataDir });

async function measure(label: string, build: () => Promise<string | null>): Promise<string> {
  await build();
  const times: number[] = [];
  let body = '';
  let statements = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const before = queryCount();
    const started = performance.now();
    body = (await build()) ?? '';
    times.push(performance.now() - started);
    statements = queryCount() - before;
  }
  times.sort((a, b) => a - b);
  const urls = (body.match(/<loc>/g) ?? []).length;
  return `| ${label} | ${times[Math.floor(RUNS / 2)]!.toFixed(0)} | ${times.at(-1)!.toFixed(0)} | ${urls} | ${(body.length / 1e6).toFixed(2)} MB | ${statements} |`;
}

try {
  const rows = ['| sitemap | median ms | max ms | addresses | size | SQL statements |', '|---|---|---|---|---|---|'];
  const index = await buildSitemapIndex(origin);
  rows.push(await measure('/sitemap.xml (index)', () => buildSitemapIndex(origin)));
  for (const [, path] of index.matchAll(/<loc>[^<]*\/sitemaps\/([^<]+)\.xml<\/loc>/g)) {
    const name = parseSitemapName(path!)!;
    rows.push(await measure(`/sitemaps/${path}.xml`, () => buildSitemap(origin, name)));
  }
  console.log(rows.join('\n'));
} finally {
  await database.stop();
}
process.exit(0);
