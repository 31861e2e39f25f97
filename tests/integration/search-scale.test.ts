import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { searchProjects, type SearchSort } from '../../src/server/services/projects/index.ts';
import { sql } from 'drizzle-orm';
import { getDb, getGenericDb } from '../../src/server/db/client.ts';
import { projects } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { forgetSearchStatistics } from '../../src/server/services/projects/search.ts';

useTestDatabase();

/** `count` projects of `ownerId` in one statement, each with what `row(i)` gives it (title, stars, …). */
const insertProjects = (ownerId: number, count: number, row: (i: number) => Partial<typeof projects.$inferInsert>) =>
  getDb()
    .insert(projects)
    .values(Array.from({ length: count }, (_, i) => ({ publicId: newPublicId(), ownerId, title: `Project ${i}`, summary: 'x', descriptionMd: 'x', descriptionHtml: '<p>x</p>', licence: 'CERN-OHL-S-2.0', ...row(i) })));

/**
 * The paths search takes on a big result (see src/server/services/projects/search.ts), forced on a small
 * database with tiny limits: the count stops early and the total is an estimate, title matches are
 * ranked first, and every kind of query finds what it finds through the columns of migration 0008.
 */
describe('search beyond its counting limit', () => {
  it('answers the same pages with an estimated total, title matches first', async () => {
    const { user } = await createUser();
    const tag = await createTag('sensors-s', 'Sensors', '传感器');
    const day = 86_400_000;
    const made = [];
    for (let i = 0; i < 6; i++) {
      made.push(
        await createProject(user.id, { title: `Sensor board ${i}`, summary: 'A small board', searchText: 'humidity', starCount: i, publishedAt: new Date(Date.now() - i * day) }, [tag.id]),
      );
    }
    for (let i = 0; i < 6; i++) {
      made.push(await createProject(user.id, { title: `Logger ${i}`, summary: 'Logs a sensor', searchText: 'sensor sensor', starCount: 10 + i, publishedAt: new Date(Date.now() - (10 + i) * day) }));
    }
    await createProject(user.id, { title: 'Deleted sensor', status: 'deleted' });

    const page = (q: string, sort: SearchSort, limits: { countLimit?: number; titleLimit?: number } = {}, pageNo = 1, pageSize = 5) =>
      searchProjects({ q, sort, page: pageNo, pageSize, ...limits }, 'en-US');
    for (const sort of ['relevance', 'newest', 'stars'] as const) {
      for (const pageNo of [1, 2, 3]) {
        const exact = await page('sensor', sort, {}, pageNo);
        expect(exact).toMatchObject({ total: 12, totalExact: true });
        // Counting stops after 4: the total is PostgreSQL's estimate, never below what was counted.
        const capped = await page('sensor', sort, { countLimit: 3 }, pageNo);
        expect(capped.totalExact).toBe(false);
        expect(capped.total).toBeGreaterThanOrEqual(4);
        expect(capped.list.map((card) => card.id)).toEqual(exact.list.map((card) => card.id));
        // Title matches counted past their own limit: the most starred of them are ranked.
        const starred = await page('sensor', sort, { countLimit: 3, titleLimit: 2 }, pageNo);
        expect(starred.list.map((card) => card.id)).toEqual(exact.list.map((card) => card.id));
      }
    }
    // Every title match ranks above every project that has the word only in its text, however
    // often and however starred.
    const ranked = (await page('sensor', 'relevance', { countLimit: 3 }, 1, 12)).list.map((card) => card.title);
    expect(ranked.slice(0, 6).every((title) => title.startsWith('Sensor board'))).toBe(true);
    expect(ranked.slice(6).every((title) => title.startsWith('Logger'))).toBe(true);
    // Within a tag, and past the last page.
    expect((await page('sensor', 'stars', { countLimit: 3 })).list).toHaveLength(5);
    expect((await searchProjects({ q: 'sensor', tag: 'sensors-s', page: 1, pageSize: 20, countLimit: 3 }, 'en-US')).list.map((card) => card.id).sort()).toEqual(
      made.slice(0, 6).map((project) => project.publicId).sort(),
    );
    expect((await page('sensor', 'relevance', { countLimit: 3 }, 9)).list).toEqual([]);
  });

  it('answers the same pages when statistics promise many matches and the counts are left out', async () => {
    const { user } = await createUser();
    const base = Date.UTC(2026, 0, 1);
    await insertProjects(user.id, 260, (i) => ({ title: `Probe 探头 ${i}`, starCount: i % 17, publishedAt: new Date(base + i * 60_000) }));
    const page = (q: string, sort: SearchSort, pageNo: number) => searchProjects({ q, sort, page: pageNo, pageSize: 20, countLimit: 10, titleLimit: 50 }, 'en-US');
    const pages = async () => {
      const answers = [];
      for (const q of ['probe', '探头']) for (const sort of ['relevance', 'newest', 'stars'] as const) for (const pageNo of [1, 2]) answers.push(await page(q, sort, pageNo));
      return answers;
    };
    // Without statistics every count is made; with them ('probe' and 探头 are in nearly every
    // project, far beyond 4 times either limit) the counts are left out: the same cards.
    const counted = await pages();
    await getDb().execute(sql`ANALYZE projects`);
    forgetSearchStatistics();
    const promised = await pages();
    for (const [i, answer] of promised.entries()) {
      expect(answer.list.map((card) => card.id), `answer ${i}`).toEqual(counted[i]!.list.map((card) => card.id));
      expect(answer.list).toHaveLength(20);
      expect(answer.totalExact).toBe(false);
      expect(answer.total).toBeGreaterThan(10);
    }
  });

  it('ranks the title matches alone when statistics expect as many as the page needs, and the whole way when they were wrong', async () => {
    const { user } = await createUser();
    const base = Date.UTC(2025, 6, 1);
    await insertProjects(user.id, 300, (i) => ({ title: i < 120 ? `Meter ${i}` : `Enclosure ${i}`, summary: i % 3 ? 'x' : 'A meter for the bench', searchText: i < 120 ? `Meter ${i} meter`.repeat(1 + (i % 4)) : `Enclosure ${i} for a meter`, starCount: i % 13, publishedAt: new Date(base + i * 60_000) }));
    // Every match ranked, the count never stopping: the pages as they should be.
    const truth = (pageNo: number) => searchProjects({ q: 'meter', page: pageNo, pageSize: 20, countLimit: 100_000 }, 'en-US');
    const page = (pageNo: number) => searchProjects({ q: 'meter', page: pageNo, pageSize: 20, countLimit: 10, titleLimit: 500 }, 'en-US');
    await getDb().execute(sql`ANALYZE projects`);
    forgetSearchStatistics();
    // Statistics now expect about 120 title matches: pages 1 to 3 need at most 60, so each is the
    // title matches ranked alone; page 6 needs all 120.
    // The title matches ranked alone bring the same cards, highlights included; a stop word
    // beside the word changes nothing.
    for (const pageNo of [1, 2, 3, 6]) expect((await page(pageNo)).list, `page ${pageNo}`).toEqual((await truth(pageNo)).list);
    const second = (await truth(2)).list;
    const withStopWord = await searchProjects({ q: 'the meter', page: 2, pageSize: 20, countLimit: 10, titleLimit: 500 }, 'en-US');
    expect(withStopWord.list).toEqual(second);
    // One word: those pages came from the statement prepared for every such search, planned once
    // (generic). The last search's statement ran on the pool that plans them once, and a pool
    // hands out the connection it was given back last.
    const { rows } = await getGenericDb().execute<{ generic: number; custom: number; statement: string }>(sql`
      SELECT generic_plans::int AS generic, custom_plans::int AS custom, statement FROM pg_prepared_statements WHERE name = 'search_one_word_titles:500'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.custom).toBe(0);
    expect(rows[0]!.generic).toBeGreaterThanOrEqual(1);
    // Its generic plan may read the title index, which holds published projects only (on these
    // few hundred projects reading them all costs less, so that is forbidden here): with the
    // status sent as a parameter it could not.
    const plan = await getDb().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      return (await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`EXPLAIN (GENERIC_PLAN) ${rows[0]!.statement}`))).rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('Bitmap Index Scan on projects_title_terms_idx');
    expect((await page(1)).list[0]!.highlight.title).toMatch(/^<mark>Meter<\/mark> \d+$/);
    // The whole statement's pages: with a title limit of 200, statistics' 120 are more than half
    // of it, so the one way is never tried (the pages are the same while the title matches number
    // at most 200, or all more).
    const whole = (pageNo: number) => searchProjects({ q: 'meter', page: pageNo, pageSize: 20, countLimit: 10, titleLimit: 200 }, 'en-US');
    // Most title matches hidden since: statistics still expect 120 (they count hidden projects
    // too), the count of them says 10, and the pages are the whole statement's (the 10 first, then
    // the most starred).
    await getDb().execute(sql`UPDATE ${projects} SET hidden_at = now() WHERE owner_id = ${user.id} AND title LIKE 'Meter %' AND star_count > 0`);
    for (const pageNo of [1, 2, 3]) {
      const answer = await page(pageNo);
      expect(answer.list.map((card) => card.id), `page ${pageNo}`).toEqual((await whole(pageNo)).list.map((card) => card.id));
      expect(answer.list).toHaveLength(20);
    }
    expect((await page(1)).list.slice(0, 10).every((card) => card.title.startsWith('Meter'))).toBe(true);
    // Many more published since: statistics still expect 120, the count says more than the limit
    // of 500, and the pages are the whole statement's (the most starred title matches, ranked).
    await insertProjects(user.id, 600, (i) => ({ title: `Meter late ${i}`, starCount: i % 29, publishedAt: new Date(base + (1000 + i) * 60_000) }));
    for (const pageNo of [1, 2]) expect((await page(pageNo)).list.map((card) => card.id), `page ${pageNo}`).toEqual((await whole(pageNo)).list.map((card) => card.id));
  });

  it('answers the same pages when a probe finds several common parts together often, and counts them when together they are rare', async () => {
    const { user } = await createUser();
    // The newest projects of this database (the tests above left theirs): every one a "gauge
    // 量规器"; half widgets, half gadgets, and one both.
    const base = Date.now() + 86_400_000;
    await insertProjects(user.id, 260, (i) => ({ title: `Gauge 量规器 ${i}`, summary: i % 2 ? 'A widget' : i === 100 ? 'A widget and a gadget' : 'A gadget', starCount: i % 17, publishedAt: new Date(base + i * 60_000) }));
    const limits = { countLimit: 10, titleLimit: 50, probeRows: 100 };
    const page = (q: string, sort: SearchSort, pageNo: number) => searchProjects({ q, sort, page: pageNo, pageSize: 20, ...limits }, 'en-US');
    const queries = ['gauge widget', 'gauge 量规器', '量规器', '量规 gauge'];
    const pages = async () => {
      const answers = [];
      for (const q of queries) for (const sort of ['relevance', 'newest', 'stars'] as const) for (const pageNo of [1, 2]) answers.push(await page(q, sort, pageNo));
      return answers;
    };
    // Without statistics of these words nothing is known to be common and every count is made;
    // with them each part is in a good share of the projects, so the probe of the 100 newest
    // measures the query as a whole, and the counts are left out: the same cards.
    forgetSearchStatistics();
    const counted = await pages();
    await getDb().execute(sql`ANALYZE projects`);
    forgetSearchStatistics();
    const probed = await pages();
    for (const [i, answer] of probed.entries()) {
      expect(answer.list.map((card) => card.id), `answer ${i}`).toEqual(counted[i]!.list.map((card) => card.id));
      expect(answer.list).toHaveLength(20);
      expect(answer.totalExact, `answer ${i}`).toBe(false);
    }
    // The total is the probe's share of all projects (as of the ANALYZE): widgets are half of what
    // it read, gauges all of it.
    const [{ rows }] = [await getDb().execute<{ n: number }>(sql`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'projects'::regclass`)];
    const projectCount = Number(rows[0]!.n);
    for (const [i, answer] of probed.entries()) expect(answer.total, `answer ${i}`).toBe(Math.round((i < 6 ? 0.5 : 1) * projectCount));
    // Widgets and gadgets are each half of these projects, but one project alone is both: the
    // probe finds too few to trust, and the count is made.
    for (const sort of ['relevance', 'newest', 'stars'] as const) {
      const both = await page('widget gadget', sort, 1);
      expect(both).toMatchObject({ total: 1, totalExact: true });
      expect(both.list.map((card) => card.title)).toEqual(['Gauge 量规器 100']);
    }
  });

  it('finds words by their rarest one, compounds by the compound, and CJK runs of any length', async () => {
    const { user } = await createUser();
    const station = await createProject(user.id, { title: 'Weather station', summary: 'Measures the weather', searchText: 'A station on the roof' });
    const hotAir = await createProject(user.id, { title: 'Hot-air station', summary: 'Rework', searchText: 'A station for SMD rework' });
    const usbC = await createProject(user.id, { title: 'USB-C PD trigger', summary: 'Asks for 20 V', searchText: 'usb-c power delivery' });
    const usb = await createProject(user.id, { title: 'USB hub', summary: 'Four ports', searchText: 'usb hub' });
    const sensor = await createProject(user.id, { title: '基于 ESP32 的温湿度传感器', summary: '低功耗，电池供电', searchText: '蓝牙 温湿度 传感器 模块' });
    const meter = await createProject(user.id, { title: '蓝牙电池电压表', summary: '显示电池电压', searchText: '电池 电压 蓝牙 ESP32' });

    const ids = async (q: string, limits: { countLimit?: number } = {}) =>
      (await searchProjects({ q, page: 1, pageSize: 20, ...limits }, 'en-US')).list.map((card) => card.id).sort();
    const sorted = (...projects: { publicId: string }[]) => projects.map((project) => project.publicId).sort();
    for (const limits of [{}, { countLimit: 0 }]) {
      expect(await ids('weather station', limits)).toEqual(sorted(station));
      expect(await ids('station', limits)).toEqual(sorted(station, hotAir));
      expect(await ids('usb-c', limits)).toEqual(sorted(usbC));
      expect(await ids('usb', limits)).toEqual(sorted(usbC, usb));
      expect(await ids('"hot-air station"', limits)).toEqual(sorted(hotAir));
      expect(await ids('station -weather', limits)).toEqual(sorted(hotAir));
      // CJK runs of one, two and more characters; several runs; runs with words.
      expect(await ids('蓝', limits)).toEqual(sorted(sensor, meter));
      expect(await ids('电池', limits)).toEqual(sorted(sensor, meter));
      expect(await ids('温湿度传感器', limits)).toEqual(sorted(sensor));
      expect(await ids('湿度传', limits)).toEqual(sorted(sensor));
      expect(await ids('传感器电池', limits)).toEqual([]); // the pairs are all there, the run is not
      expect(await ids('蓝牙 电压', limits)).toEqual(sorted(meter));
      expect(await ids('ESP32 传感器', limits)).toEqual(sorted(sensor));
      expect(await ids('esp32 电池', limits)).toEqual(sorted(sensor, meter));
    }
  });
});
