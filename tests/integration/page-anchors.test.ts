import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { projects, projectTags } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { pageTags, purgePages } from '../../src/server/page-cache/tags.ts';
import { queryCardPage } from '../../src/server/services/projects/cards.ts';
import { deleteProject, listProjects, type ProjectPage } from '../../src/server/services/projects/index.ts';
import { ANCHOR_EVERY, findPageStart, hotKeyset, recommendKeyset } from '../../src/server/services/projects/page-anchors.ts';
import { isListed } from '../../src/server/services/core/index.ts';
import { orderFor } from '../../src/server/services/projects/list.ts';

useTestDatabase();

const COUNT = ANCHOR_EVERY * 12 + 137;
let ownerId = 0;
let tagId = 0;

beforeAll(async () => {
  ownerId = (await createUser()).user.id;
  tagId = (await createTag('anchored-t', 'Anchored', '锚')).id;
  // Many projects share a publication time (to the microsecond, which a JavaScript date would
  // lose): the order then rests on the id, and a keyset must too.
  const base = Date.UTC(2026, 0, 1);
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    publicId: newPublicId(),
    ownerId,
    title: `Anchored board ${i}`,
    summary: 'x',
    descriptionMd: 'x',
    descriptionHtml: '<p>x</p>',
    licence: 'CERN-OHL-S-2.0',
    publishedAt: sql`${new Date(base + Math.floor(i / 7) * 60_000).toISOString()}::timestamptz + interval '123 microseconds'`,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    const made = await getDb().insert(projects).values(rows.slice(i, i + 500)).returning({ id: projects.id });
    await getDb().insert(projectTags).values(made.filter((_, k) => k % 2 === 0).map((row) => ({ projectId: row.id, tagId })));
  }
});

/** The page by plain OFFSET, as every list was read before page anchors. */
const byOffset = (page: number, pageSize: number, tag?: string, sort: 'newest' | 'hot' | 'recommend' = 'newest') =>
  tag
    ? queryCardPage(sql`${projects.id} IN (SELECT ${projectTags.projectId} FROM ${projectTags} WHERE ${projectTags.tagId} = ${tagId})`, orderFor(sort), { page, pageSize }, 'en-US')
    : queryCardPage(undefined, orderFor(sort), { page, pageSize }, 'en-US');
const ids = (page: ProjectPage) => page.list.map((card) => card.id);
/**
 * The total of a page by anchors against OFFSET's: the same, unless the anchors have read the list
 * to its end, when it is the list's exact length where OFFSET's may be an estimate.
 */
const expectTotal = async (anchored: ProjectPage, plain: ProjectPage, label: string) => {
  if (anchored.totalExact && !plain.totalExact) {
    const [{ n }] = (await getDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${projects} WHERE ${isListed}`)).rows as [{ n: number }];
    expect(anchored.total, label).toBe(n);
  } else expect(anchored.total, label).toBe(plain.total);
};

describe('deep pages of the newest list', () => {
  it('are the very pages OFFSET gives, at every depth, with ties on the publication time, within a tag too', async () => {
    for (const pageSize of [20, 7]) {
      const last = Math.ceil(COUNT / pageSize) + 1;
      for (const page of [1, 2, Math.floor(ANCHOR_EVERY / pageSize), Math.ceil(ANCHOR_EVERY / pageSize) + 1, 25, 26, 51, Math.floor(last / 2), last - 2, last - 1, last]) {
        const anchored = await listProjects({ sort: 'newest', page, pageSize }, 'en-US');
        const plain = await byOffset(page, pageSize);
        expect(ids(anchored), `page ${page} of ${pageSize}`).toEqual(ids(plain));
        await expectTotal(anchored, plain, `page ${page} of ${pageSize}`);
      }
    }
    // And they did start from anchors: the deepest page skipped fewer rows than an anchor spans.
    const deep = await findPageStart('newest ', isListed, ANCHOR_EVERY * 11 + 37);
    expect(deep?.skip).toBe(37);
    // A page far past the end (an estimated total above the truth links to it) starts from the
    // list's last anchor instead of reading the whole list, and is as empty as OFFSET's.
    const beyond = ANCHOR_EVERY * 40;
    expect((await findPageStart('newest ', isListed, beyond))?.skip).toBe(beyond - Math.floor(COUNT / ANCHOR_EVERY) * ANCHOR_EVERY);
    expect(ids(await listProjects({ sort: 'newest', page: beyond / 20 + 1, pageSize: 20 }, 'en-US'))).toEqual([]);
    for (const page of [5, 6, 30, 33, 34]) {
      expect(ids(await listProjects({ sort: 'newest', tag: 'anchored-t', page, pageSize: 20 }, 'en-US')), `tag page ${page}`).toEqual(ids(await byOffset(page, 20, 'anchored-t')));
    }
  });

  it('follow a deletion at once: its purge drops the anchors', async () => {
    const pageSize = 20;
    const page = Math.ceil((ANCHOR_EVERY * 2) / pageSize) + 3;
    await listProjects({ sort: 'newest', page, pageSize }, 'en-US');
    // A project near the top leaves: every deep page moves up by one card.
    const top = (await byOffset(1, 1)).list[0]!;
    await deleteProject(ownerId, top.id);
    expect(ids(await listProjects({ sort: 'newest', page, pageSize }, 'en-US'))).toEqual(ids(await byOffset(page, pageSize)));
  });

  it('forget anchors on any purge of the lists, from this instance or another', async () => {
    const pageSize = 20;
    const page = Math.ceil((ANCHOR_EVERY * 3) / pageSize) + 1;
    await listProjects({ sort: 'newest', page, pageSize }, 'en-US');
    // A project published by hand, then announced as another instance's purge would be.
    await getDb().insert(projects).values({ publicId: newPublicId(), ownerId, title: 'Late arrival', summary: 'x', descriptionMd: 'x', descriptionHtml: '<p>x</p>', licence: 'CERN-OHL-S-2.0', publishedAt: new Date(Date.UTC(2030, 0, 1)) });
    purgePages(pageTags.lists);
    expect(ids(await listProjects({ sort: 'newest', page, pageSize }, 'en-US'))).toEqual(ids(await byOffset(page, pageSize)));
  });

  it('are right for every visitor of deep pages arriving together, who share one search for the anchors', async () => {
    purgePages(pageTags.lists);
    const pageSize = 20;
    const pages = [30, 31, 45, 60, 61, 30, 45, 60];
    const answers = await Promise.all(pages.map((page) => listProjects({ sort: 'newest', page, pageSize }, 'en-US')));
    for (const [i, page] of pages.entries()) expect(ids(answers[i]!), `page ${page}`).toEqual(ids(await byOffset(page, pageSize)));
  });

  it('give a list read to its end its exact length, where its estimate was off, on every page', async () => {
    purgePages(pageTags.lists);
    // Forty hidden by hand, statistics not told: PostgreSQL's estimate still counts them.
    await getDb().execute(sql`UPDATE ${projects} SET hidden_at = now() WHERE id IN (SELECT id FROM ${projects} WHERE owner_id = ${ownerId} AND hidden_at IS NULL ORDER BY id LIMIT 40)`);
    try {
      const [{ n: listed }] = (await getDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${projects} WHERE ${isListed}`)).rows as [{ n: number }];
      const pageSize = 20;
      // A counting limit of 50 stands in for COUNT_LIMIT: beyond it, the total is an estimate.
      const page = (pageNo: number, sort: 'newest' | 'hot' = 'newest') => listProjects({ sort, page: pageNo, pageSize, countLimit: 50 }, 'en-US');
      const before = await page(3);
      expect(before.totalExact).toBe(false);
      expect(before.total).not.toBe(listed);
      // A deep page finds the anchors down to it; a page past the end reads on from the last of
      // them to the list's end, and from then on every page knows the list's length.
      const pastEnd = Math.ceil(listed / pageSize) + 5;
      expect((await page(30)).totalExact).toBe(false);
      expect(ids(await page(pastEnd))).toEqual([]);
      for (const pageNo of [1, 3, 30, Math.ceil(listed / pageSize / 2), pastEnd]) expect(await page(pageNo), `page ${pageNo}`).toMatchObject({ total: listed, totalExact: true });
      // Whatever PostgreSQL estimated, the last page is where the list ends.
      const last = await page(Math.ceil(listed / pageSize));
      expect(last.list).toHaveLength(listed - (Math.ceil(listed / pageSize) - 1) * pageSize);
      // The hot order moves as stars come, without a purge: anchors read on from earlier ones do
      // not give it a length (the rows before them may have changed places), anchors read from its
      // top do.
      purgePages(pageTags.lists);
      await page(30, 'hot');
      expect(ids(await page(pastEnd, 'hot'))).toEqual([]);
      expect((await page(3, 'hot')).totalExact).toBe(false);
      purgePages(pageTags.lists);
      expect(ids(await page(pastEnd, 'hot'))).toEqual([]);
      expect(await page(3, 'hot')).toMatchObject({ total: listed, totalExact: true });
    } finally {
      await getDb().execute(sql`UPDATE ${projects} SET hidden_at = NULL WHERE owner_id = ${ownerId}`);
      purgePages(pageTags.lists);
    }
  });

  it('of the hot and recommend lists are the pages OFFSET gives too, with ties on the score and curated projects past an anchor', async () => {
    purgePages(pageTags.lists);
    // Stars make some scores differ, and a few more curated projects than an anchor spans put an
    // anchor inside the curated ones (ranks with ties too).
    await getDb().execute(sql`UPDATE ${projects} SET ${sql.identifier('star_count')} = id % 5 WHERE id % 3 = 0`);
    await getDb().execute(sql`UPDATE ${projects} SET ${sql.identifier('recommend_rank')} = (id % 40) WHERE id % 9 = 0`);
    const count = (await listProjects({ sort: 'hot', page: 1, pageSize: 1 }, 'en-US')).total;
    for (const sort of ['hot', 'recommend'] as const) {
      for (const pageSize of [20, 7]) {
        const last = Math.ceil(count / pageSize) + 1;
        for (const page of [1, 6, 26, 51, Math.floor(last / 2), last - 1, last]) {
          const anchored = await listProjects({ sort, page, pageSize }, 'en-US');
          const plain = await byOffset(page, pageSize, undefined, sort);
          expect(ids(anchored), `${sort} page ${page} of ${pageSize}`).toEqual(ids(plain));
          await expectTotal(anchored, plain, `${sort} page ${page} of ${pageSize}`);
        }
      }
      for (const page of [5, 6, 30, 33, 34]) {
        expect(ids(await listProjects({ sort, tag: 'anchored-t', page, pageSize: 20 }, 'en-US')), `${sort} tag page ${page}`).toEqual(ids(await byOffset(page, 20, 'anchored-t', sort)));
      }
    }
    // They did start from anchors.
    expect((await findPageStart('hot ', isListed, ANCHOR_EVERY * 11 + 37, hotKeyset))?.skip).toBe(37);
    expect((await findPageStart('recommend ', isListed, ANCHOR_EVERY + 5, recommendKeyset))?.skip).toBe(5);
  });
});
