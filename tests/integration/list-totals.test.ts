import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { sql } from 'drizzle-orm';
import { getDb, queryCount } from '../../src/server/db/client.ts';
import { collectionProjects, collections, stars } from '../../src/server/db/schema/index.ts';
import type { ProjectPage } from '../../src/server/services/projects/index.ts';
import { listCollectionProjects, listProjects, listStarredProjects, listUserProjects } from '../../src/server/services/projects/index.ts';
import type { Paging } from '../../src/server/lib/paging.ts';
import { forgetSearchStatistics } from '../../src/server/services/projects/search.ts';

useTestDatabase();

type List = (paging: Paging) => Promise<ProjectPage>;

/**
 * Reads a list as a visitor does: page 1, then "next" for as long as the pagination offers it
 * (up to the last page its total promises). Answers every page read.
 */
async function walk(list: List, pageSize: number, countLimit?: number): Promise<ProjectPage[]> {
  const pages: ProjectPage[] = [];
  for (let page = 1; page <= 100; page += 1) {
    const answer = await list({ page, pageSize, countLimit });
    pages.push(answer);
    if (page >= Math.ceil(answer.total / pageSize)) break;
  }
  return pages;
}

/**
 * The behaviour of every kind of list (its own condition: all published projects, a tag and its
 * children, a member's projects, their stars, a collection), counted up to a tiny limit to stand
 * in for a list of more than `COUNT_LIMIT` projects at 100k.
 */
describe('list totals', () => {
  it('says the exact number of a list within the counting limit, and "about" beyond it, and its pages still reach the last card', async () => {
    const { user: maker } = await createUser();
    const { user: fan } = await createUser();
    const parent = await createTag('instruments-t', 'Instruments', '仪器');
    const child = await createTag('scopes-t', 'Scopes', '示波器', parent.id);
    const [collection] = await getDb().insert(collections).values({ name: 'bench-t', titleEn: 'Bench', titleZh: '工作台' }).returning();
    const made = [];
    for (let i = 0; i < 7; i += 1) {
      // Half in the parent tag, half in its child: a parent's list has both.
      const project = await createProject(maker.id, { title: `Scope ${i}`, publishedAt: new Date(Date.UTC(2026, 0, 1 + i)) }, [i % 2 ? parent.id : child.id]);
      made.push(project);
      await getDb().insert(stars).values({ userId: fan.id, projectId: project.id, createdAt: new Date(Date.UTC(2026, 1, 1 + i)) });
      await getDb().insert(collectionProjects).values({ collectionId: collection!.id, projectId: project.id, position: i });
    }
    // Never listed, nor counted: a deleted project with the same tag, star and collection.
    const deleted = await createProject(maker.id, { title: 'Deleted scope', status: 'deleted' }, [parent.id]);
    await getDb().insert(stars).values({ userId: fan.id, projectId: deleted.id });
    await getDb().insert(collectionProjects).values({ collectionId: collection!.id, projectId: deleted.id, position: 99 });

    const lists: [string, List][] = [
      ['a tag and its children', (paging) => listProjects({ ...paging, tag: 'instruments-t' }, 'en-US')],
      ['a tag, hot first', (paging) => listProjects({ ...paging, tag: 'instruments-t', sort: 'hot' }, 'en-US')],
      ["a member's projects", (paging) => listUserProjects(maker.customUrl, paging, 'en-US')],
      ["a member's stars", (paging) => listStarredProjects(fan.customUrl, paging, 'en-US')],
      ['a collection', (paging) => listCollectionProjects(collection!.id, paging, 'en-US')],
    ];
    const ids = (pages: ProjectPage[]) => pages.flatMap((page) => page.list.map((card) => card.id));
    for (const [name, list] of lists) {
      // Within the limit: the exact number, on every page.
      const whole = await list({ page: 1, pageSize: 50 });
      expect(whole, name).toMatchObject({ total: 7, totalExact: true });
      expect(whole.list.map((card) => card.id).sort(), name).toEqual(made.map((project) => project.publicId).sort());
      const small = await walk(list, 3);
      expect(small.map((page) => [page.total, page.totalExact]), name).toEqual([[7, true], [7, true], [7, true]]);

      // Beyond a limit of 3 (4 counted): about N, N at least what was counted.
      const big = await walk(list, 2, 3);
      const first = big[0]!;
      expect(first.totalExact, name).toBe(false);
      expect(first.total, name).toBeGreaterThanOrEqual(4);
      // Every page links on while cards remain, whatever PostgreSQL estimates, so walking the
      // pages shows every card once, in the order of the whole list.
      expect(ids(big), name).toEqual(whole.list.map((card) => card.id));
      // The last page knows where the list ends: the exact number again.
      expect(big.at(-1), name).toMatchObject({ total: 7, totalExact: true });
      expect(big.at(-1)!.list, name).toHaveLength(1);
      // A page past the end is an empty page of the same list.
      const past = await list({ page: 9, pageSize: 2, countLimit: 3 });
      expect(past.list, name).toEqual([]);
      expect(past.page, name).toBe(9);
    }
  });

  it('leaves out the count of a list its estimate promises is far beyond the limit, and still reaches its last card', async () => {
    const { user: maker } = await createUser();
    for (let i = 0; i < 30; i += 1) await createProject(maker.id, { title: `Long list ${i}`, publishedAt: new Date(Date.UTC(2026, 2, 1 + i)) });
    await getDb().execute(sql`ANALYZE projects`);
    forgetSearchStatistics();
    // A limit of 3 (4 counted) stands in for COUNT_LIMIT; PostgreSQL estimates about 30 listed
    // projects, more than SURELY (4) times the 4 a count would read.
    const statementsFor = async (paging: Paging) => {
      const before = queryCount();
      const page = await listProjects({ ...paging, sort: 'newest' }, 'en-US');
      return { page, statements: queryCount() - before };
    };
    // The first time: the page, the count, and PostgreSQL's estimate, which is remembered.
    const first = await statementsFor({ page: 1, pageSize: 2, countLimit: 3 });
    expect(first.statements).toBe(3);
    expect(first.page.totalExact).toBe(false);
    expect(first.page.total).toBeGreaterThanOrEqual(24);
    // From then on: the page alone, with the same "about N".
    const again = await statementsFor({ page: 1, pageSize: 2, countLimit: 3 });
    expect(again.statements).toBe(1);
    expect(again.page).toEqual(first.page);
    // Its cards come with their tags, read in the same statement.
    expect(again.page.list[0]!.tags).toEqual([]);
    // Walking on, every card shows once, and the last page knows where the list ends.
    const pages = await walk((paging) => listProjects({ ...paging, sort: 'newest' }, 'en-US'), 10, 3);
    const everyOne = await listProjects({ page: 1, pageSize: 100, sort: 'newest' }, 'en-US');
    expect(pages.flatMap((page) => page.list.map((card) => card.id))).toEqual(everyOne.list.map((card) => card.id));
    expect(pages.at(-1)!.totalExact).toBe(true);
    expect(pages.at(-1)!.total).toBe(everyOne.total);
  });
});
