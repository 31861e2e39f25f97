import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { getDb } from '../../src/server/db/client.ts';
import { loadDemoContent } from '../../src/server/seed/demo-content.ts';
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD, queueDemoImageVariants, seedDemoIfEmpty } from '../../src/server/seed/demo.ts';
import { seedSynthetic } from '../../src/server/seed/synthetic.ts';
import { fanOutActivities, listFollowingFeed } from '../../src/server/services/community/index.ts';
import { tagSlugOf } from '../../src/lib/tag-names.ts';
import { verifyPassword } from '../../src/server/lib/passwords.ts';
import { getStorage } from '../../src/server/storage/index.ts';

useTestDatabase();

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await getDb().$client.query(text, values)).rows as T[];
}

const TABLES = [
  'users', 'credentials', 'tags', 'projects', 'project_tags', 'stars', 'likes', 'comments', 'comment_likes',
  'messages', 'banners', 'collections', 'collection_projects', 'donations', 'uploads',
  'project_logs', 'makes', 'make_images', 'follows', 'activities', 'feed_entries', 'member_collections', 'member_collection_projects',
];

async function tableCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  return out;
}

/**
 * Projects whose stored counters differ from the rows they count (a project's comment count is of
 * its own comments, not its build logs'; the logs count theirs).
 */
async function mismatchedCounters(): Promise<unknown[]> {
  return rows(`
    SELECT p.public_id, p.star_count, p.like_count, p.comment_count, p.log_count, p.make_count, p.remix_count,
           (SELECT count(*)::int FROM stars s WHERE s.project_id = p.id) AS stars,
           (SELECT count(*)::int FROM likes l WHERE l.project_id = p.id) AS likes,
           (SELECT count(*)::int FROM comments c WHERE c.project_id = p.id AND c.log_id IS NULL AND c.deleted_at IS NULL) AS comments
    FROM projects p
    WHERE p.star_count <> (SELECT count(*) FROM stars s WHERE s.project_id = p.id)
       OR p.like_count <> (SELECT count(*) FROM likes l WHERE l.project_id = p.id)
       OR p.comment_count <> (SELECT count(*) FROM comments c WHERE c.project_id = p.id AND c.log_id IS NULL AND c.deleted_at IS NULL)
       OR p.log_count <> (SELECT count(*) FROM project_logs l WHERE l.project_id = p.id AND l.deleted_at IS NULL AND l.hidden_at IS NULL)
       OR p.make_count <> (SELECT count(*) FROM makes m WHERE m.project_id = p.id)
       OR p.remix_count <> (SELECT count(*) FROM projects r WHERE r.remix_of_id = p.id AND r.status = 'published')
       OR EXISTS (SELECT 1 FROM project_logs l WHERE l.project_id = p.id
                  AND l.comment_count <> (SELECT count(*) FROM comments c WHERE c.log_id = l.id AND c.deleted_at IS NULL))`);
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
        UNION ALL SELECT image FROM banners UNION ALL SELECT cover FROM collections
        UNION ALL SELECT '/files/' || u.storage_key FROM make_images mi JOIN uploads u ON u.id = mi.upload_id) i
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
    const boardsOf = await rows<{ title: string; cover: string | null; files: number; boards: number; queued: number; docs: number; sources: number }>(`
      SELECT p.title, p.cover,
        (SELECT count(*)::int FROM attachments a WHERE a.project_id = p.id) AS files,
        (SELECT count(*)::int FROM boards b WHERE b.project_id = p.id) AS boards,
        (SELECT count(*)::int FROM boards b WHERE b.project_id = p.id AND b.status = 'queued') AS queued,
        (SELECT count(*)::int FROM eda_documents d WHERE d.project_id = p.id AND d.status = 'queued') AS docs,
        (SELECT count(*)::int FROM design_sources s WHERE s.project_id = p.id AND s.status IN ('queued', 'waiting')) AS sources
      FROM projects p WHERE EXISTS (SELECT 1 FROM attachments a WHERE a.project_id = p.id)`);
    expect(boardsOf.map((p) => p.title).sort()).toEqual([
      expect.stringContaining('BGA24 to SOP8'),
      expect.stringContaining('Bitaxe Ultra'),
      expect.stringContaining('RRF Raspberry Pi'),
      expect.stringContaining('Sangaboard'),
      expect.stringContaining('SnapperGPS'),
    ]);
    for (const project of boardsOf) expect(project).toMatchObject({ cover: null });
    // Gerber sets are boards queued at once; the KiCad-only project's board comes once its source is read.
    expect(boardsOf.filter((p) => p.boards === 1 && p.queued === 1).map((p) => p.title)).toHaveLength(4);
    expect(boardsOf.filter((p) => p.sources === 1).map((p) => p.title).sort()).toEqual([expect.stringContaining('Bitaxe Ultra'), expect.stringContaining('RRF Raspberry Pi')]);
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
        tags: [...file.tags, ...(file.memberTags ?? []).map(tagSlugOf)].sort(),
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

  it('gives projects build logs, makes, a remix and members\' collections as the files say, with their counts and messages', async () => {
    const content = loadDemoContent();
    const idOf = new Map(
      (await rows<{ id: number; title: string }>(`SELECT id, title FROM projects`)).map((row) => [row.title, row.id]),
    );
    const projectOf = (slug: string) => content.projects.find((project) => project.slug === slug)!;

    // build logs: numbered 1..n in the file's order, by the owner, after publication, in time order
    expect(content.logs.length).toBeGreaterThanOrEqual(6);
    for (const entry of content.logs) {
      const logs = await rows<{ n: number; title: string; author: string; body_html: string; after_publication: boolean; log_count: number }>(
        `SELECT l.n, l.title, u.custom_url AS author, l.body_html, l.created_at > p.published_at AS after_publication, p.log_count
         FROM project_logs l JOIN users u ON u.id = l.author_id JOIN projects p ON p.id = l.project_id
         WHERE l.project_id = $1 ORDER BY l.created_at`,
        [idOf.get(projectOf(entry.project).title)],
      );
      expect(logs.map((log) => [log.n, log.title, log.author]), entry.project).toEqual(entry.logs.map((log, i) => [i + 1, log.title, projectOf(entry.project).owner]));
      for (const log of logs) {
        expect(log.after_publication).toBe(true);
        expect(log.log_count).toBe(entry.logs.length);
        expect(log.body_html).not.toMatch(/<script|\son[a-z]+=/i);
      }
    }
    const logComments = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM comments WHERE log_id IS NOT NULL AND parent_id IS NULL`);
    expect(logComments[0]!.n).toBeGreaterThanOrEqual(3);
    const misplaced = await rows(`SELECT c.id FROM comments c JOIN project_logs l ON l.id = c.log_id WHERE c.project_id <> l.project_id OR c.created_at < l.created_at`);
    expect(misplaced).toEqual([]);

    // makes: by the files' members, never the owner, each with its photos and a message to the owner
    const made = await rows<{ project: string; maker: string; body: string; link: string | null; photos: number; owner_id: number; maker_id: number; told: number }>(`
      SELECT p.title AS project, u.custom_url AS maker, m.body, m.link, p.owner_id, m.maker_id,
             (SELECT count(*)::int FROM make_images i JOIN uploads up ON up.id = i.upload_id WHERE i.make_id = m.id AND up.owner_id = m.maker_id) AS photos,
             (SELECT count(*)::int FROM messages g WHERE g.kind = 'make' AND g.recipient_id = p.owner_id AND g.actor_id = m.maker_id AND g.dedupe_key = 'make:' || m.id) AS told
      FROM makes m JOIN projects p ON p.id = m.project_id JOIN users u ON u.id = m.maker_id
      WHERE m.created_at > p.published_at ORDER BY m.id`);
    expect(made).toEqual(
      content.makes.map((make) => expect.objectContaining({ project: projectOf(make.project).title, maker: make.maker, body: make.note, link: make.link ?? null, photos: make.photos, told: 1 })),
    );
    for (const make of made) expect(make.maker_id).not.toBe(make.owner_id);

    // the remix: based on its original, which counts it
    const remixes = await rows<{ remix: string; original: string; remix_count: number; later: boolean }>(`
      SELECT r.title AS remix, o.title AS original, o.remix_count, r.published_at > o.published_at AS later
      FROM projects r JOIN projects o ON o.id = r.remix_of_id`);
    expect(remixes).toEqual(
      content.projects.filter((project) => project.remixOf).map((project) => ({ remix: project.title, original: projectOf(project.remixOf!).title, remix_count: 1, later: true })),
    );
    expect(remixes.length).toBeGreaterThanOrEqual(1);

    // members' collections, public and private, with their projects in order
    for (const collection of content.memberCollections) {
      const listed = await rows<{ title: string; is_public: boolean; slug: string }>(
        `SELECT p.title, c.is_public, c.slug FROM member_collection_projects cp JOIN member_collections c ON c.id = cp.collection_id
         JOIN users u ON u.id = c.owner_id JOIN projects p ON p.id = cp.project_id
         WHERE u.custom_url = $1 AND c.title = $2 ORDER BY cp.position`,
        [collection.owner, collection.title],
      );
      expect(listed.map((row) => row.title)).toEqual(collection.projects.map((slug) => projectOf(slug).title));
      expect(listed[0]!.is_public).toBe(collection.public);
      expect(listed[0]!.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    // members' own tags: outside the staff tree, named as typed, made by the first owner who typed them
    const memberTags = await rows<{ slug: string; name_en: string; name_zh: string; parent_id: number | null; creator: string }>(
      `SELECT t.slug, t.name_en, t.name_zh, t.parent_id, u.custom_url AS creator FROM tags t JOIN users u ON u.id = t.created_by WHERE NOT t.curated ORDER BY t.slug`,
    );
    const typed = new Map<string, { name: string; owner: string }>();
    for (const file of content.projects) for (const name of file.memberTags ?? []) if (!typed.has(tagSlugOf(name))) typed.set(tagSlugOf(name), { name, owner: file.owner });
    expect(memberTags).toEqual(
      [...typed].sort(([a], [b]) => (a < b ? -1 : 1)).map(([slug, { name, owner }]) => ({ slug, name_en: name, name_zh: name, parent_id: null, creator: owner })),
    );
    expect(memberTags.length).toBeGreaterThanOrEqual(3);

    const privateOnes = await rows(`SELECT id FROM member_collections WHERE NOT is_public`);
    expect(privateOnes.length).toBeGreaterThanOrEqual(1);
    expect(await mismatchedCounters()).toEqual([]);
  });

  it('has members follow members, projects and tags, and fills their Following feeds from real activity once the feed job runs', async () => {
    const followed = await rows<{ kind: string; n: number }>(`SELECT kind, count(*)::int AS n FROM follows GROUP BY kind ORDER BY kind`);
    expect(followed.map((row) => row.kind)).toEqual(['project', 'tag', 'user']);
    for (const row of followed) expect(row.n).toBeGreaterThanOrEqual(10);
    const dangling = await rows(`
      SELECT f.* FROM follows f WHERE
        (f.kind = 'user' AND (f.target_id = f.follower_id OR NOT EXISTS (SELECT 1 FROM users u WHERE u.id = f.target_id)))
        OR (f.kind = 'project' AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = f.target_id AND p.owner_id <> f.follower_id))
        OR (f.kind = 'tag' AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = f.target_id))`);
    expect(dangling).toEqual([]);
    const toldOfFollows = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE kind = 'follow'`);
    expect(toldOfFollows[0]!.n).toBe(followed.find((row) => row.kind === 'user')!.n);

    // activities: every project's publication, log and make, at its own time and address
    const wrong = await rows(`
      SELECT a.* FROM activities a JOIN projects p ON p.id = a.project_id WHERE NOT (
        (a.kind = 'project' AND a.ref_id IS NULL AND a.actor_id = p.owner_id AND a.created_at = p.published_at AND a.path = '/d-' || p.public_id)
        OR (a.kind = 'log' AND EXISTS (SELECT 1 FROM project_logs l WHERE l.id = a.ref_id AND l.project_id = p.id AND l.author_id = a.actor_id
              AND l.created_at = a.created_at AND l.title = a.title AND a.path = '/d-' || p.public_id || '/log/' || l.n))
        OR (a.kind = 'make' AND EXISTS (SELECT 1 FROM makes m WHERE m.id = a.ref_id AND m.project_id = p.id AND m.maker_id = a.actor_id
              AND m.created_at = a.created_at AND a.path = '/d-' || p.public_id || '/makes')))`);
    expect(wrong).toEqual([]);
    const kinds = await rows<{ kind: string; n: number; delivered: number }>(
      `SELECT kind, count(*)::int AS n, count(*) FILTER (WHERE fanned_out_at IS NOT NULL)::int AS delivered FROM activities GROUP BY kind ORDER BY kind`,
    );
    const counted = await rows<{ projects: number; logs: number; makes: number }>(
      `SELECT (SELECT count(*)::int FROM projects) AS projects, (SELECT count(*)::int FROM project_logs) AS logs, (SELECT count(*)::int FROM makes) AS makes`,
    );
    // delivered by the feed job's function once the seed committed: nothing is left for the job
    expect(kinds).toEqual([
      { kind: 'log', n: counted[0]!.logs, delivered: counted[0]!.logs },
      { kind: 'make', n: counted[0]!.makes, delivered: counted[0]!.makes },
      { kind: 'project', n: counted[0]!.projects, delivered: counted[0]!.projects },
    ]);
    expect(await fanOutActivities()).toBe(0);
    // the followed members' news is dated when it happened, and read when old, like the seed's other messages
    const told = await rows<{ n: number; misdated: number; unread_old: number }>(`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE m.created_at <> a.created_at)::int AS misdated,
             count(*) FILTER (WHERE m.read_at IS NULL AND a.created_at < now() - interval '5 days')::int AS unread_old
      FROM messages m JOIN activities a ON a.id = m.activity_id WHERE m.kind LIKE 'followed\\_%'`);
    expect(told[0]!.n).toBeGreaterThan(20);
    expect(told[0]).toMatchObject({ misdated: 0, unread_old: 0 });
    const members = await rows<{ id: number; custom_url: string }>(`SELECT id, custom_url FROM users WHERE custom_url = ANY($1) ORDER BY id`, [
      loadDemoContent().users.map((user) => user.url),
    ]);
    for (const member of members) {
      const feed = await listFollowingFeed(member.id, { page: 1, pageSize: 20 }, 'en-US');
      expect(feed.list.length, member.custom_url).toBeGreaterThan(0);
      for (const entry of feed.list) expect(entry.actor.url).not.toBe(member.custom_url);
    }
    const first = await listFollowingFeed(members[0]!.id, { page: 1, pageSize: 50 }, 'en-US');
    const times = first.list.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const feedKinds = await rows<{ kind: string }>(`SELECT DISTINCT a.kind FROM feed_entries f JOIN activities a ON a.id = f.activity_id ORDER BY 1`);
    expect(feedKinds.map((row) => row.kind)).toEqual(['log', 'make', 'project']);
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
