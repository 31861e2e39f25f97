import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { projects } from '../../src/server/db/schema/index.ts';
import { submitComment } from '../../src/server/services/community/index.ts';
import { listProjects, type ProjectSort, saveProject, saveProjectSchema, setProjectLike, setProjectStar } from '../../src/server/services/projects/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';

useTestDatabase();

const HOUR = 60 * 60 * 1000;
const at = (iso: string, hours = 0) => new Date(Date.parse(iso) + hours * HOUR);

/** The titles of the list `sort` (first page of 50), in list order. */
async function titlesOn(sort: ProjectSort): Promise<string[]> {
  return (await listProjects({ sort, page: 1, pageSize: 50 }, 'en-US')).list.map((card) => card.title);
}

/** The given titles in the order the list `sort` shows them (each test looks at its own projects). */
async function order(sort: ProjectSort, ...titles: string[]): Promise<string[]> {
  return (await titlesOn(sort)).filter((title) => titles.includes(title));
}

describe('the hot list', () => {
  it('ranks a newer project above an older one with the same reactions', async () => {
    const { user } = await createUser();
    // created first, so that only its publication time can put it first (equal scores go by newest id)
    await createProject(user.id, { title: 'Newer clock', publishedAt: at('2026-03-01T08:00:00Z', 1), starCount: 2, likeCount: 1 });
    await createProject(user.id, { title: 'Older clock', publishedAt: at('2026-03-01T08:00:00Z'), starCount: 2, likeCount: 1 });
    expect(await order('hot', 'Older clock', 'Newer clock')).toEqual(['Newer clock', 'Older clock']);
  });

  it('lets twice the reactions make up for 12 hours, and no more', async () => {
    const { user } = await createUser();
    // weighted reactions: 3 a star, 2 a like or comment, 1 to start with → 8 against 4
    await createProject(user.id, { title: 'Meter 13 h later', publishedAt: at('2026-03-02T00:00:00Z', 13), starCount: 1 });
    await createProject(user.id, { title: 'Popular meter', publishedAt: at('2026-03-02T00:00:00Z'), starCount: 1, likeCount: 2 });
    await createProject(user.id, { title: 'Meter 11 h later', publishedAt: at('2026-03-02T00:00:00Z', 11), starCount: 1 });
    expect(await order('hot', 'Popular meter', 'Meter 11 h later', 'Meter 13 h later')).toEqual(['Meter 13 h later', 'Popular meter', 'Meter 11 h later']);
  });

  it('raises a project above an otherwise equal one as it gains stars, likes and comments, and lowers it when a star is taken back', async () => {
    const { user: owner } = await createUser();
    const { user: fan } = await createUser();
    const publishedAt = at('2026-03-03T12:00:00Z');
    const first = await createProject(owner.id, { title: 'First synth', publishedAt });
    await createProject(owner.id, { title: 'Second synth', publishedAt });
    // equal scores: the later id first
    expect(await order('hot', 'First synth', 'Second synth')).toEqual(['Second synth', 'First synth']);

    await setProjectStar(fan.id, first.publicId, true);
    expect(await order('hot', 'First synth', 'Second synth')).toEqual(['First synth', 'Second synth']);
    await setProjectStar(fan.id, first.publicId, false);
    expect(await order('hot', 'First synth', 'Second synth')).toEqual(['Second synth', 'First synth']);
    await setProjectLike(fan.id, first.publicId, true);
    expect(await order('hot', 'First synth', 'Second synth')).toEqual(['First synth', 'Second synth']);
    await setProjectLike(fan.id, first.publicId, false);
    await submitComment(fan.id, first.publicId, 'Lovely filter sweep!');
    expect(await order('hot', 'First synth', 'Second synth')).toEqual(['First synth', 'Second synth']);
  });

  it('keeps the order of two projects however long after their publication the list is read', async () => {
    const { user } = await createUser();
    // Relative to now, like a visitor reading the list an hour after the fresh one was published:
    // a per-request score decaying with age would rank the fresh one first now and the popular
    // one first a week later.
    const now = Date.now();
    await createProject(user.id, { title: 'Popular scope', publishedAt: new Date(now - 21 * HOUR), starCount: 10 });
    await createProject(user.id, { title: 'Fresh scope', publishedAt: new Date(now - 1 * HOUR), starCount: 1 });
    const before = await order('hot', 'Popular scope', 'Fresh scope');
    expect(before).toEqual(['Popular scope', 'Fresh scope']);

    // A week later: both projects a week older, nothing else changed.
    const week = 7 * 24 * HOUR;
    await getDb()
      .update(projects)
      .set({ publishedAt: sql`${projects.publishedAt} - make_interval(secs => ${week / 1000})` })
      .where(sql`${projects.title} IN ('Popular scope', 'Fresh scope')`);
    expect(await order('hot', 'Popular scope', 'Fresh scope')).toEqual(before);
  });

  it('shows neither drafts nor deleted projects', async () => {
    const { user } = await createUser();
    await saveProject(user.id, parseInput(saveProjectSchema, { title: 'Unfinished amplifier', publish: false }));
    await createProject(user.id, { title: 'Deleted amplifier', status: 'deleted', starCount: 500 });
    await createProject(user.id, { title: 'Listed amplifier' });
    for (const sort of ['hot', 'recommend'] as const) {
      const titles = await titlesOn(sort);
      expect(titles).toContain('Listed amplifier');
      expect(titles).not.toContain('Unfinished amplifier');
      expect(titles).not.toContain('Deleted amplifier');
    }
  });
});

describe('the recommend list', () => {
  it('puts curated projects first in their rank, then the rest by hot score', async () => {
    const { user } = await createUser();
    const publishedAt = at('2026-03-04T00:00:00Z');
    await createProject(user.id, { title: 'Curated first', publishedAt, recommendRank: 1 });
    await createProject(user.id, { title: 'Curated second', publishedAt, recommendRank: 2 });
    await createProject(user.id, { title: 'Starred, not curated', publishedAt, starCount: 40 });
    await createProject(user.id, { title: 'Quiet, not curated', publishedAt });
    expect(await order('recommend', 'Curated second', 'Curated first', 'Starred, not curated', 'Quiet, not curated')).toEqual([
      'Curated first',
      'Curated second',
      'Starred, not curated',
      'Quiet, not curated',
    ]);
  });
});
