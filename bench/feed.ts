/**
 * The Following feed at scale, for `npm run bench` (inside the 100,000-project run of
 * `bench/search.ts`): `seedFeedBench` gives one member 10,000 follows (members, projects and every
 * tag) and every seeded project its `project` activity, fans them all out with the feed job's own
 * code and times it; `benchFeed` then measures `feed/list` and `/feed` as that member, one request
 * at a time after a warm-up. Alone, on a seeded DATA_DIR with no server running:
 * `DATA_DIR=… node bench/feed.ts seed` (prints the member's session token).
 */
import { sql } from 'drizzle-orm';
import { getConfig } from '../src/server/config.ts';
import { getDb, startDatabase } from '../src/server/db/client.ts';
import { fanOutActivities } from '../src/server/services/community/index.ts';
import { createSession } from '../src/server/services/accounts/index.ts';
import { percentile } from './stats.ts';

const REQUESTS = 20;
/** What the bench member follows: this many members and projects, and every tag. */
export const FEED_FOLLOWS = 10_000;

/** Seeds the follows and activities into the database of `DATA_DIR`; answers the member's token and the timings. */
export async function seedFeedBench(): Promise<{ token: string; follows: number; activities: number; entries: number; fanOutMs: number; databaseBytes: number }> {
  const database = await startDatabase({ dataDir: getConfig().dataDir });
  try {
    const db = getDb();
    const [reader] = (await db.execute(sql`INSERT INTO users (custom_url, nickname) VALUES ('bench-feed-reader', 'Feed Reader') RETURNING id`)).rows as { id: number }[];
    const readerId = reader!.id;
    // Every tag, then members and projects (half each) up to FEED_FOLLOWS in all.
    await db.execute(sql`INSERT INTO follows (follower_id, kind, target_id) SELECT ${readerId}, 'tag', id FROM tags`);
    const [{ n: tagFollows }] = (await db.execute(sql`SELECT count(*)::int AS n FROM follows WHERE follower_id = ${readerId}`)).rows as { n: number }[];
    const half = Math.floor((FEED_FOLLOWS - tagFollows) / 2);
    await db.execute(sql`INSERT INTO follows (follower_id, kind, target_id) SELECT ${readerId}, 'user', id FROM users WHERE id <> ${readerId} ORDER BY id LIMIT ${half}`);
    await db.execute(sql`INSERT INTO follows (follower_id, kind, target_id) SELECT ${readerId}, 'project', id FROM projects ORDER BY id DESC LIMIT ${FEED_FOLLOWS - tagFollows - half}`);
    await db.execute(sql`
      INSERT INTO activities (kind, actor_id, project_id, path, created_at)
      SELECT 'project', owner_id, id, '/d-' || public_id, published_at FROM projects WHERE status = 'published'`);
    const started = Date.now();
    const activities = await fanOutActivities();
    const fanOutMs = Date.now() - started;
    const [{ n: entries }] = (await db.execute(sql`SELECT count(*)::int AS n FROM feed_entries WHERE user_id = ${readerId}`)).rows as { n: number }[];
    await db.execute(sql`ANALYZE feed_entries; ANALYZE follows; ANALYZE activities`);
    const { token } = await createSession(readerId, 'bench');
    const [{ bytes }] = (await db.execute(sql`SELECT pg_database_size(current_database())::bigint AS bytes`)).rows as { bytes: string }[];
    return { token, follows: FEED_FOLLOWS, activities, entries, fanOutMs, databaseBytes: Number(bytes) };
  } finally {
    await database.stop();
  }
}


async function measure(url: string, token: string): Promise<{ p50: number; p95: number; max: number; errors: number }> {
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < REQUESTS + 3; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, cookie: `token=${token}`, 'accept-language': 'en-US' } });
    await response.text();
    if (i >= 3) times.push(performance.now() - started);
    if (!response.ok) errors += 1;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) ?? 0, errors };
}

/** Measures the feed of the seeded member on the running server at `base`; answers a Markdown section. */
export async function benchFeed(base: string, seeded: Awaited<ReturnType<typeof seedFeedBench>>): Promise<string> {
  const rows: [string, string][] = [
    ['`GET /api/feed/list` (first page of 20)', '/api/feed/list?page=1&pageSize=20'],
    ['`GET /api/feed/list?page=50`', '/api/feed/list?page=50&pageSize=20'],
    ['`/feed` (the page)', '/feed'],
    ['`/` (home with the Following section)', '/'],
  ];
  const measured = [];
  for (const [name, path] of rows) measured.push({ name, ...(await measure(`${base}${path}`, seeded.token)) });
  const ms = (value: number) => value.toFixed(1);
  return [
    `One member following ${seeded.follows.toLocaleString('en-US')} members, projects and tags; ${seeded.activities.toLocaleString('en-US')} project activities fanned out by the feed job's code in ${(seeded.fanOutMs / 1000).toFixed(1)} s, giving the member ${seeded.entries.toLocaleString('en-US')} feed entries. Signed in (never cached), one request at a time, ${REQUESTS} after 3 warm-up requests.`,
    '',
    '| request | p50 ms | p95 ms | max ms | errors |',
    '|---|---:|---:|---:|---:|',
    ...measured.map((row) => `| ${row.name} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.max)} | ${row.errors} |`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'seed') {
  console.log(JSON.stringify(await seedFeedBench()));
  process.exit(0);
}
