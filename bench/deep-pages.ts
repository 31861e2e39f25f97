/**
 * What a deep page of the newest list costs in PostgreSQL, by OFFSET and from its page anchor
 * (src/server/services/projects/page-anchors.ts), and what finding the anchors costs once per
 * purge of the lists: `EXPLAIN ANALYZE` of each query, median of six. On a seeded database that no
 * server is using: `DATA_DIR=<its folder> node bench/deep-pages.ts` (after `npm run seed -- --projects 100000`).
 */
import { getConfig } from '../src/server/config.ts';
import { getDb, startDatabase } from '../src/server/db/client.ts';
import { ANCHOR_EVERY } from '../src/server/services/projects/page-anchors.ts';
const database = await startDatabase({ dataDir: getConfig().dataDir });
const c = getDb().$client;
const q = async (label: string, sql: string): Promise<void> => { const t: number[] = []; for (let i = 0; i < 6; i++) { const r = await c.query('EXPLAIN (ANALYZE, FORMAT JSON) ' + sql); t.push(r.rows[0]['QUERY PLAN'][0]['Execution Time']); } t.sort((a, b) => a - b); console.log(label, 'median', t[3]!.toFixed(2), 'ms, first', t[0]!.toFixed(2)); };
const listed = `status = 'published' AND hidden_at IS NULL`;
await q('page 1 (LIMIT 21)', `SELECT id FROM projects WHERE ${listed} ORDER BY published_at DESC, id DESC LIMIT 21`);
await q('page 2000 by OFFSET 39980', `SELECT id FROM projects WHERE ${listed} ORDER BY published_at DESC, id DESC LIMIT 21 OFFSET 39980`);
await q('anchors for 40,000 rows (once per lists purge)', `SELECT published, id FROM (SELECT published_at::text AS published, id, row_number() OVER (ORDER BY published_at DESC, id DESC) n FROM projects WHERE ${listed} ORDER BY published_at DESC, id DESC LIMIT 40000) t WHERE n % ${ANCHOR_EVERY} = 0 ORDER BY n`);
const a = (await c.query(`SELECT published_at::text p, id FROM projects WHERE ${listed} ORDER BY published_at DESC, id DESC LIMIT 1 OFFSET ${Math.floor(39_980 / ANCHOR_EVERY) * ANCHOR_EVERY - 1}`)).rows[0];
await q(`page 2000 from its anchor (skip ${39_980 % ANCHOR_EVERY})`, `SELECT id FROM projects WHERE ${listed} AND (published_at, id) < ('${a.p}'::timestamptz, ${a.id}) ORDER BY published_at DESC, id DESC LIMIT 21 OFFSET ${39_980 % ANCHOR_EVERY}`);
const plan = await c.query(`EXPLAIN SELECT id FROM projects WHERE ${listed} AND (published_at, id) < ('${a.p}'::timestamptz, ${a.id}) ORDER BY published_at DESC, id DESC LIMIT 21 OFFSET ${39_980 % ANCHOR_EVERY}`);
console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
await database.stop();
