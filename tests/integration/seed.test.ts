import { scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { getDb } from '../../src/server/db/client.ts';
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD, seedDemoIfEmpty } from '../../src/server/seed/demo.ts';
import { hashDemoPassword } from '../../src/server/seed/password.ts';
import { seedSynthetic } from '../../src/server/seed/synthetic.ts';
import { getStorage } from '../../src/server/storage/index.ts';

useTestDatabase();

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, length: number, options: object) => Promise<Buffer>;

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await getDb().$client.query(text, values)).rows as T[];
}

const TABLES = [
  'users', 'credentials', 'tags', 'projects', 'project_tags', 'stars', 'likes', 'comments', 'comment_likes',
  'messages', 'banners', 'collections', 'collection_projects', 'donations', 'uploads',
];

async function tableCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  return out;
}

/** Projects whose stored counters differ from the rows they count. */
async function mismatchedCounters(): Promise<unknown[]> {
  return rows(`
    SELECT p.public_id, p.star_count, p.like_count, p.comment_count,
           (SELECT count(*)::int FROM stars s WHERE s.project_id = p.id) AS stars,
           (SELECT count(*)::int FROM likes l WHERE l.project_id = p.id) AS likes,
           (SELECT count(*)::int FROM comments c WHERE c.project_id = p.id AND c.deleted_at IS NULL) AS comments
    FROM projects p
    WHERE p.star_count <> (SELECT count(*) FROM stars s WHERE s.project_id = p.id)
       OR p.like_count <> (SELECT count(*) FROM likes l WHERE l.project_id = p.id)
       OR p.comment_count <> (SELECT count(*) FROM comments c WHERE c.project_id = p.id AND c.deleted_at IS NULL)`);
}

describe('demo content', () => {
  it('fills an empty database with people, bilingual projects and consistent counters', async () => {
    // an operator may have prepared tags before the first start: they are kept, not duplicated
    await rows(`INSERT INTO tags (slug, name_en, name_zh) VALUES ('esp32', 'ESP32 boards', 'ESP32 开发板'), ('operator-picks', 'Picks', '精选')`);
    const started = Date.now();
    expect(await seedDemoIfEmpty()).toBe(true);
    expect(Date.now() - started).toBeLessThan(15_000);

    const counts = await tableCounts();
    expect(counts.users).toBeGreaterThanOrEqual(12);
    expect(counts.credentials).toBe(counts.users);
    expect(counts.banners).toBe(3);
    expect(counts.collections).toBe(2);
    expect(counts.donations).toBeGreaterThanOrEqual(20);

    const projects = await rows<{ title: string; cover: string | null; description_html: string; public_id: string }>(
      `SELECT title, cover, description_html, public_id FROM projects WHERE status = 'published'`,
    );
    expect(projects.length).toBeGreaterThanOrEqual(40);
    const chinese = projects.filter((p) => /[\u4e00-\u9fff]/.test(p.title));
    expect(chinese.length).toBeGreaterThanOrEqual(10);
    expect(projects.length - chinese.length).toBeGreaterThanOrEqual(10);
    for (const project of projects) {
      expect(project.public_id).toMatch(/^[0-9a-z]{12}$/);
      expect(project.description_html).toContain('<h2>');
      expect(project.description_html).not.toMatch(/<script|<iframe|<style|\son[a-z]+=/i);
    }

    // every stored image URL points at a file that exists in storage
    const images = await rows<{ url: string }>(`
      SELECT cover AS url FROM projects UNION ALL SELECT avatar FROM users
      UNION ALL SELECT image FROM banners UNION ALL SELECT cover FROM collections`);
    for (const { url } of images) {
      expect(url).toMatch(/^\/files\/demo\/.+\.webp$/);
      const size = await getStorage().size(url.slice('/files/'.length));
      expect(size, url).toBeGreaterThan(1000);
    }
    const uploads = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM uploads WHERE mime = 'image/webp'`);
    expect(uploads[0]!.n).toBe(images.length);

    expect(await mismatchedCounters()).toEqual([]);
    const replies = await rows(`
      SELECT c.id FROM comments c
      WHERE c.parent_id IS NULL AND c.reply_count <> (SELECT count(*) FROM comments r WHERE r.parent_id = c.id AND r.deleted_at IS NULL)`);
    expect(replies).toEqual([]);
    const nested = await rows(`SELECT r.id FROM comments r JOIN comments c ON c.id = r.parent_id WHERE c.parent_id IS NOT NULL`);
    expect(nested).toEqual([]);
    expect((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM comments WHERE parent_id IS NOT NULL`))[0]!.n).toBeGreaterThan(0);
    const selfStars = await rows(`SELECT 1 FROM stars s JOIN projects p ON p.id = s.project_id WHERE s.user_id = p.owner_id`);
    expect(selfStars).toEqual([]);

    const tagSlugs = await rows<{ slug: string; name_en: string }>(`SELECT slug, name_en FROM tags`);
    expect(tagSlugs.length).toBeGreaterThanOrEqual(20);
    expect(tagSlugs.filter((tag) => tag.slug === 'esp32')).toEqual([{ slug: 'esp32', name_en: 'ESP32 boards' }]);
    expect(tagSlugs.some((tag) => tag.slug === 'operator-picks')).toBe(true);
    const untagged = await rows(`SELECT p.id FROM projects p WHERE NOT EXISTS (SELECT 1 FROM project_tags t WHERE t.project_id = p.id)`);
    expect(untagged).toEqual([]);

    const curated = await rows<{ recommend_rank: number }>(`SELECT recommend_rank FROM projects WHERE recommend_rank IS NOT NULL ORDER BY 1`);
    expect(curated.length).toBeGreaterThanOrEqual(3);
    const collectionSizes = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM collection_projects GROUP BY collection_id`);
    for (const { n } of collectionSizes) expect(n).toBeGreaterThanOrEqual(5);
  });

  it('gives every demo account the demo password in the scrypt format the SSO reads', async () => {
    const accounts = await rows<{ email: string; password_hash: string; custom_url: string }>(
      `SELECT c.email, c.password_hash, u.custom_url FROM credentials c JOIN users u ON u.id = c.user_id`,
    );
    for (const account of accounts) {
      expect(account.custom_url).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(account.email).toBe(`${account.custom_url}@${DEMO_EMAIL_DOMAIN}`);
    }
    const match = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(accounts[0]!.password_hash);
    expect(match).not.toBeNull();
    const [, N, r, p, salt, hash] = match!;
    expect([N, r, p]).toEqual(['16384', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    const expected = Buffer.from(hash!, 'base64url');
    expect(expected).toHaveLength(64);
    const options = { N: Number(N), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
    const derived = await scrypt(DEMO_PASSWORD, Buffer.from(salt!, 'base64url'), 64, options);
    expect(timingSafeEqual(derived, expected)).toBe(true);
    const wrong = await scrypt('not-the-password', Buffer.from(salt!, 'base64url'), 64, options);
    expect(timingSafeEqual(wrong, expected)).toBe(false);
  });

  it('does nothing on a database that already has users', async () => {
    const before = await tableCounts();
    expect(await seedDemoIfEmpty()).toBe(false);
    expect(await tableCounts()).toEqual(before);
  });

  it('salts every password hash differently', async () => {
    const [a, b] = await Promise.all([hashDemoPassword('x'), hashDemoPassword('x')]);
    expect(a).not.toBe(b);
  });
});

describe('synthetic data', () => {
  it('adds users and published projects with tags and consistent counters next to existing data', async () => {
    const before = await tableCounts();
    const summary = await seedSynthetic({ users: 40, projects: 300 });
    expect(summary).toMatchObject({ users: 40, projects: 300 });
    const after = await tableCounts();
    expect(after.users - before.users).toBe(40);
    expect(after.projects - before.projects).toBe(300);
    expect(after.tags).toBe(before.tags); // reuses the existing tree
    expect(after.stars - before.stars).toBe(summary.stars);
    expect(after.comments - before.comments).toBe(summary.comments);
    expect(await mismatchedCounters()).toEqual([]);
    const untagged = await rows(`SELECT p.id FROM projects p WHERE NOT EXISTS (SELECT 1 FROM project_tags t WHERE t.project_id = p.id)`);
    expect(untagged).toEqual([]);
    const covers = await rows<{ cover: string }>(`SELECT DISTINCT cover FROM projects WHERE cover LIKE '/files/synthetic/%'`);
    expect(covers.length).toBeGreaterThan(1);
    for (const { cover } of covers) expect(await getStorage().size(cover.slice('/files/'.length))).toBeGreaterThan(1000);
    const titles = await rows<{ zh: number; en: number }>(`
      SELECT count(*) FILTER (WHERE title ~ '[一-龥]')::int AS zh, count(*) FILTER (WHERE title !~ '[一-龥]')::int AS en
      FROM projects WHERE cover LIKE '/files/synthetic/%'`);
    expect(titles[0]!.zh).toBeGreaterThan(50);
    expect(titles[0]!.en).toBeGreaterThan(50);
  });
});
