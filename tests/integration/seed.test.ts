import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { getDb } from '../../src/server/db/client.ts';
import { loadDemoContent } from '../../src/server/db/seed/demo-content.ts';
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD, queueDemoImageVariants, seedDemoIfEmpty } from '../../src/server/db/seed/demo.ts';
import { seedSynthetic } from '../../src/server/db/seed/synthetic.ts';
import { verifyPassword } from '../../src/server/services/passwords.ts';
import { getStorage } from '../../src/server/storage/index.ts';

useTestDatabase();

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

    // every stored image URL points at a file that exists in storage, stored as an uploaded image
    // is (its upload's id in its name, with its width), so pages offer its variants
    const images = await rows<{ url: string; width: number | null }>(`
      SELECT i.url, u.width FROM (
        SELECT cover AS url FROM projects WHERE cover IS NOT NULL UNION ALL SELECT avatar FROM users
        UNION ALL SELECT image FROM banners UNION ALL SELECT cover FROM collections) i
      LEFT JOIN uploads u ON i.url = '/files/' || u.storage_key AND u.id = substring(i.url from '([0-9a-z]+)\\.webp$')`);
    for (const { url, width } of images) {
      expect(url).toMatch(/^\/files\/images\/[0-9a-z]{2}\/[0-9a-z]{16}\.webp$/);
      expect(width, url).toBeGreaterThan(0);
      const size = await getStorage().size(url.slice('/files/'.length));
      expect(size, url).toBeGreaterThan(1000);
    }
    const uploads = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM uploads WHERE mime = 'image/webp'`);
    expect(uploads[0]!.n).toBe(images.length);
    // their variants are made by the workers, not while seeding: the server queues them once it serves
    expect(await getStorage().size(images[0]!.url.slice('/files/'.length).replace('.webp', '.w160.avif'))).toBeNull();
    expect(await queueDemoImageVariants()).toBe(images.length - counts.users);
    const queued = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'image.variants'`);
    expect(queued[0]!.n).toBe(images.length - counts.users);

    // the real boards: a project without generated artwork carries design files, its board queued
    // for the job queue, and its BOM and placement files waiting to be read
    const boardsOf = await rows<{ title: string; cover: string | null; files: number; boards: number; queued: number; docs: number }>(`
      SELECT p.title, p.cover,
        (SELECT count(*)::int FROM attachments a WHERE a.project_id = p.id) AS files,
        (SELECT count(*)::int FROM boards b WHERE b.project_id = p.id) AS boards,
        (SELECT count(*)::int FROM boards b WHERE b.project_id = p.id AND b.status = 'queued') AS queued,
        (SELECT count(*)::int FROM eda_documents d WHERE d.project_id = p.id AND d.status = 'queued') AS docs
      FROM projects p WHERE EXISTS (SELECT 1 FROM attachments a WHERE a.project_id = p.id)`);
    expect(boardsOf.map((p) => p.title).sort()).toEqual([
      expect.stringContaining('BGA24 to SOP8'),
      expect.stringContaining('RRF Raspberry Pi'),
      expect.stringContaining('Sangaboard'),
      expect.stringContaining('SnapperGPS'),
    ]);
    for (const project of boardsOf) expect(project).toMatchObject({ cover: null, boards: 1, queued: 1 });
    expect(boardsOf.filter((p) => p.docs === 1).length).toBe(3);
    for (const file of await rows<{ storage_key: string; size: number }>(`SELECT storage_key, size::int FROM attachments`)) {
      expect(await getStorage().size(file.storage_key)).toBe(file.size);
    }

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

  it('puts what the files in seed/demo say on the database: projects, banners, collections and donations', async () => {
    const content = loadDemoContent();
    const projects = await rows<{ title: string; owner: string; licence: string; recommend_rank: number | null; description_md: string; tags: string[] }>(`
      SELECT p.title, u.custom_url AS owner, p.licence, p.recommend_rank, p.description_md,
             array(SELECT t.slug FROM project_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.project_id = p.id ORDER BY t.slug) AS tags
      FROM projects p JOIN users u ON u.id = p.owner_id WHERE p.status = 'published'`);
    expect(projects).toHaveLength(content.projects.length);
    for (const file of content.projects) {
      expect(projects.find((project) => project.title === file.title), file.slug).toEqual({
        title: file.title,
        owner: file.owner,
        licence: file.licence,
        recommend_rank: file.recommend ?? null,
        description_md: file.description,
        tags: [...file.tags].sort(),
      });
    }

    const banners = await rows<{ title_en: string; title_zh: string; link: string }>(`SELECT title_en, title_zh, link FROM banners ORDER BY sort`);
    expect(banners).toEqual(content.banners.map((banner) => ({ title_en: banner.titleEn, title_zh: banner.titleZh, link: banner.link })));

    const titleOf = new Map(content.projects.map((project) => [project.slug, project.title]));
    for (const collection of content.collections) {
      const listed = await rows<{ title: string }>(
        `SELECT p.title FROM collection_projects cp JOIN collections c ON c.id = cp.collection_id JOIN projects p ON p.id = cp.project_id
         WHERE c.name = $1 ORDER BY cp.position`,
        [collection.name],
      );
      expect(listed.map((row) => row.title)).toEqual(collection.projects.map((slug) => titleOf.get(slug)));
    }

    const donations = await rows<{ donor_name: string; amount: number; project: string | null; member: string | null }>(`
      SELECT d.donor_name, d.amount, p.title AS project, u.custom_url AS member
      FROM donations d LEFT JOIN projects p ON p.id = d.project_id LEFT JOIN users u ON u.id = d.user_id ORDER BY d.created_at`);
    expect(donations).toEqual(
      content.donations.map((donation) => ({
        donor_name: donation.donor,
        amount: donation.amount,
        project: donation.project ? titleOf.get(donation.project) : null,
        member: donation.user ?? null,
      })),
    );
  });

  it('lets every demo member sign in with the demo password, hashed as the sign-in service stores passwords', async () => {
    const accounts = await rows<{ email: string; password_hash: string; custom_url: string }>(
      `SELECT c.email, c.password_hash, u.custom_url FROM credentials c JOIN users u ON u.id = c.user_id`,
    );
    expect(accounts.map((account) => account.custom_url).sort()).toEqual(loadDemoContent().users.map((user) => user.url).sort());
    for (const account of accounts) {
      expect(account.custom_url).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(account.email).toBe(`${account.custom_url}@${DEMO_EMAIL_DOMAIN}`);
      expect(account.password_hash).toMatch(/^scrypt\$N=16384,r=8,p=1\$/);
    }
    expect(await verifyPassword(DEMO_PASSWORD, accounts[0]!.password_hash)).toBe(true);
    expect(await verifyPassword('not-the-password', accounts[0]!.password_hash)).toBe(false);
  });

  it('does nothing on a database that already has users', async () => {
    const before = await tableCounts();
    expect(await seedDemoIfEmpty()).toBe(false);
    expect(await tableCounts()).toEqual(before);
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
