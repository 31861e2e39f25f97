/**
 * The sitemaps: `/sitemap.xml` is an index of `/sitemaps/{name}.xml`, each at most
 * `SITEMAP_PAGE_SIZE` addresses. Only what a guest can open is listed: published projects,
 * members with something public (a published project or a ready video: a member who only stars
 * has a page of other people's cards), tags with a published project (theirs or a child's), every
 * staff collection, members' public collections, the build logs of published projects, ready
 * videos, and the fixed list pages.
 *
 * Projects, members, build logs and members' collections are paged by ranges of their serial id: page N holds ids
 * `((N-1)·size, N·size]`, read by one range query on the primary key, so a page never holds more
 * than `size` addresses, never reads the rows of another page, and an address stays on its page
 * when others are published or deleted (a crawler's `lastmod` of a page changes only with its own
 * rows). Videos have random text ids: they are paged by that id in order, `size` at a time.
 */
import { sql, type SQL } from 'drizzle-orm';
import { logPath } from '../../../lib/logs.ts';
import { collectionPath, memberCollectionPath, projectPath, tagPath, userPath } from '../../../lib/paths.ts';
import { escapeXml } from '../../../lib/xml.ts';
import { getDb } from '../../db/client.ts';

/** The most addresses one sitemap may hold (sitemaps.org). */
export const SITEMAP_PAGE_SIZE = 50_000;

const MAX_SERIAL = 2 ** 31 - 1;

/** Sitemaps with pages (`projects-1`); the others are one file (`tags`). */
export const PAGED_SITEMAPS = ['projects', 'users', 'videos', 'logs', 'member-collections'] as const;
export const SINGLE_SITEMAPS = ['pages', 'tags', 'collections'] as const;
export type PagedSitemap = (typeof PAGED_SITEMAPS)[number];
export type SingleSitemap = (typeof SINGLE_SITEMAPS)[number];
export type SitemapName = { kind: PagedSitemap; page: number } | { kind: SingleSitemap };

/** A sitemap's address name (`projects-2`, `tags`) as a `SitemapName`, or null for anything else. */
export function parseSitemapName(name: string): SitemapName | null {
  const paged = /^(projects|users|videos|logs|member-collections)-([1-9][0-9]{0,5})$/.exec(name);
  if (paged) return { kind: paged[1] as PagedSitemap, page: Number(paged[2]) };
  return (SINGLE_SITEMAPS as readonly string[]).includes(name) ? { kind: name as SingleSitemap } : null;
}

export const sitemapPath = (name: SitemapName) => `/sitemaps/${'page' in name ? `${name.kind}-${name.page}` : name.kind}.xml`;

interface Entry {
  path: string;
  /** W3C datetime, UTC to the second (`2026-01-31T12:00:00Z`). */
  lastmod: string | null;
}

/**
 * A time as sitemaps take it, formatted by PostgreSQL: parsing 50,000 timestamps into `Date`s and
 * formatting them again cost more than the query. The text compares in time order.
 */
const w3c = (time: SQL) => sql`to_char(${time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

const asText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

// Who has a public page (not hidden or suspended by staff; hidden projects and videos count for nothing): the newest change among a member's profile, published projects and ready videos.
const membersWithPublicWork = (range: { from: number; to: number } | null) => sql`
  SELECT u.id, u.custom_url AS url, ${w3c(sql`greatest(u.updated_at, max(w.updated_at))`)} AS lastmod
  FROM (
    SELECT owner_id, updated_at FROM projects WHERE status = 'published' AND hidden_at IS NULL ${range ? sql`AND owner_id > ${range.from} AND owner_id <= ${range.to}` : sql``}
    UNION ALL
    SELECT owner_id, updated_at FROM videos WHERE status = 'ready' AND hidden_at IS NULL ${range ? sql`AND owner_id > ${range.from} AND owner_id <= ${range.to}` : sql``}
  ) w
  JOIN users u ON u.id = w.owner_id AND u.hidden_at IS NULL AND u.suspended_at IS NULL
  GROUP BY u.id`;

// Build logs a guest can read: not deleted or hidden, on a published project that is not hidden.
const readableLogs = (range: { from: number; to: number } | null) => sql`
  SELECT l.id, p.public_id, l.n, l.updated_at
  FROM project_logs l
  JOIN projects p ON p.id = l.project_id AND p.status = 'published' AND p.hidden_at IS NULL
  WHERE l.deleted_at IS NULL AND l.hidden_at IS NULL ${range ? sql`AND l.id > ${range.from} AND l.id <= ${range.to}` : sql``}`;

// Members' public collections not hidden by staff, of members who are not hidden or suspended.
const publicMemberCollections = (range: { from: number; to: number } | null) => sql`
  SELECT c.id, u.custom_url AS url, c.slug, c.updated_at
  FROM member_collections c
  JOIN users u ON u.id = c.owner_id AND u.hidden_at IS NULL AND u.suspended_at IS NULL
  WHERE c.is_public AND c.hidden_at IS NULL ${range ? sql`AND c.id > ${range.from} AND c.id <= ${range.to}` : sql``}`;

/**
 * The sitemap index: every sitemap that lists at least one address, with the newest `lastmod` of
 * its addresses. `pageSize` is the number of addresses per paged sitemap (tests lower it).
 */
export async function buildSitemapIndex(origin: string, pageSize = SITEMAP_PAGE_SIZE): Promise<string> {
  const db = getDb();
  const [projectPages, userPages, videoPages, logPages, memberCollectionPages, single] = await Promise.all([
    db.execute(sql`SELECT (id - 1) / ${pageSize} + 1 AS page, ${w3c(sql`max(updated_at)`)} AS lastmod FROM projects WHERE status = 'published' AND hidden_at IS NULL GROUP BY 1 ORDER BY 1`),
    db.execute(sql`SELECT (m.id - 1) / ${pageSize} + 1 AS page, max(m.lastmod) AS lastmod FROM (${membersWithPublicWork(null)}) m GROUP BY 1 ORDER BY 1`),
    db.execute(
      sql`SELECT page, ${w3c(sql`max(updated_at)`)} AS lastmod FROM (SELECT (row_number() OVER (ORDER BY id) - 1) / ${pageSize} + 1 AS page, updated_at FROM videos WHERE status = 'ready' AND hidden_at IS NULL) v GROUP BY 1 ORDER BY 1`,
    ),
    db.execute(sql`SELECT (l.id - 1) / ${pageSize} + 1 AS page, ${w3c(sql`max(l.updated_at)`)} AS lastmod FROM (${readableLogs(null)}) l GROUP BY 1 ORDER BY 1`),
    db.execute(sql`SELECT (c.id - 1) / ${pageSize} + 1 AS page, ${w3c(sql`max(c.updated_at)`)} AS lastmod FROM (${publicMemberCollections(null)}) c GROUP BY 1 ORDER BY 1`),
    db.execute(sql`SELECT
      ${w3c(sql`(SELECT max(published_at) FROM projects WHERE status = 'published' AND hidden_at IS NULL)`)} AS newest_published,
      (SELECT count(*)::int FROM collections) AS collections,
      ${w3c(sql`(SELECT max(created_at) FROM collections)`)} AS collections_created,
      EXISTS (SELECT 1 FROM project_tags pt JOIN projects p ON p.id = pt.project_id AND p.status = 'published' AND p.hidden_at IS NULL) AS tagged`),
  ]);
  const summary = single.rows[0] as { newest_published: unknown; collections: number; collections_created: unknown; tagged: boolean };
  // Tags and collections change with their projects: the newest change of any project bounds theirs
  // (exact values would cost the index a join of every tagged project).
  const newestProject = latest(...(projectPages.rows as { lastmod: unknown }[]).map((row) => asText(row.lastmod)));
  const sitemaps: { name: SitemapName; lastmod: string | null }[] = [{ name: { kind: 'pages' }, lastmod: asText(summary.newest_published) }];
  if (summary.tagged) sitemaps.push({ name: { kind: 'tags' }, lastmod: newestProject });
  if (summary.collections > 0) sitemaps.push({ name: { kind: 'collections' }, lastmod: latest(asText(summary.collections_created), newestProject) });
  const paged = (kind: PagedSitemap, rows: { page: string | number; lastmod: unknown }[]) => rows.map((row) => ({ name: { kind, page: Number(row.page) }, lastmod: asText(row.lastmod) }));
  sitemaps.push(
    ...paged('projects', projectPages.rows as never),
    ...paged('users', userPages.rows as never),
    ...paged('videos', videoPages.rows as never),
    ...paged('logs', logPages.rows as never),
    ...paged('member-collections', memberCollectionPages.rows as never),
  );
  const body = sitemaps
    .map(({ name, lastmod }) => `<sitemap><loc>${escapeXml(origin + sitemapPath(name))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
}

const latest = (...dates: (string | null)[]): string | null =>
  dates.reduce<string | null>((best, date) => (date && (!best || date > best) ? date : best), null);

/**
 * One sitemap (`<urlset>`), or null when it lists nothing (a page past the last, an empty id range):
 * one query whatever its size.
 */
export async function buildSitemap(origin: string, name: SitemapName, pageSize = SITEMAP_PAGE_SIZE): Promise<string | null> {
  // Ids are PostgreSQL integers: a page starting past the largest has nothing (and could not be asked for).
  if ('page' in name && (name.page - 1) * pageSize > MAX_SERIAL) return null;
  const entries = await sitemapEntries(name, pageSize);
  if (entries.length === 0 && name.kind !== 'pages') return null;
  // Built as one array joined once: 50,000 addresses make about 4 MB of text.
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  for (const entry of entries) {
    parts.push(`<url><loc>${escapeXml(origin + entry.path)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ''}</url>\n`);
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

async function sitemapEntries(name: SitemapName, pageSize: number): Promise<Entry[]> {
  const db = getDb();
  switch (name.kind) {
    case 'projects': {
      const range = { from: (name.page - 1) * pageSize, to: Math.min(name.page * pageSize, MAX_SERIAL) };
      const { rows } = await db.execute(
        sql`SELECT public_id, ${w3c(sql`updated_at`)} AS lastmod FROM projects WHERE id > ${range.from} AND id <= ${range.to} AND status = 'published' AND hidden_at IS NULL ORDER BY id`,
      );
      return (rows as { public_id: string; lastmod: string }[]).map((row) => ({ path: projectPath(row.public_id), lastmod: row.lastmod }));
    }
    case 'users': {
      const range = { from: (name.page - 1) * pageSize, to: Math.min(name.page * pageSize, MAX_SERIAL) };
      const { rows } = await db.execute(sql`SELECT url, lastmod FROM (${membersWithPublicWork(range)}) m ORDER BY id`);
      return (rows as { url: string; lastmod: string }[]).map((row) => ({ path: userPath(row.url), lastmod: row.lastmod }));
    }
    case 'videos': {
      const { rows } = await db.execute(
        sql`SELECT id, ${w3c(sql`updated_at`)} AS lastmod FROM videos WHERE status = 'ready' AND hidden_at IS NULL ORDER BY id LIMIT ${pageSize} OFFSET ${(name.page - 1) * pageSize}`,
      );
      return (rows as { id: string; lastmod: string }[]).map((row) => ({ path: `/video/player?id=${encodeURIComponent(row.id)}`, lastmod: row.lastmod }));
    }
    case 'logs': {
      const range = { from: (name.page - 1) * pageSize, to: Math.min(name.page * pageSize, MAX_SERIAL) };
      const { rows } = await db.execute(sql`SELECT public_id, n, ${w3c(sql`updated_at`)} AS lastmod FROM (${readableLogs(range)}) l ORDER BY id`);
      return (rows as { public_id: string; n: number; lastmod: string }[]).map((row) => ({ path: logPath(row.public_id, Number(row.n)), lastmod: row.lastmod }));
    }
    case 'member-collections': {
      const range = { from: (name.page - 1) * pageSize, to: Math.min(name.page * pageSize, MAX_SERIAL) };
      const { rows } = await db.execute(sql`SELECT url, slug, ${w3c(sql`updated_at`)} AS lastmod FROM (${publicMemberCollections(range)}) c ORDER BY id`);
      return (rows as { url: string; slug: string; lastmod: string }[]).map((row) => ({ path: memberCollectionPath(row.url, row.slug), lastmod: row.lastmod }));
    }
    case 'tags': {
      // A parent tag's page lists its children's projects too.
      const { rows } = await db.execute(sql`
        SELECT t.slug, ${w3c(sql`max(p.updated_at)`)} AS lastmod
        FROM tags t
        JOIN tags c ON c.id = t.id OR c.parent_id = t.id
        JOIN project_tags pt ON pt.tag_id = c.id
        JOIN projects p ON p.id = pt.project_id AND p.status = 'published' AND p.hidden_at IS NULL
        GROUP BY t.slug ORDER BY t.slug`);
      return (rows as { slug: string; lastmod: string }[]).map((row) => ({ path: tagPath(row.slug), lastmod: row.lastmod }));
    }
    case 'collections': {
      const { rows } = await db.execute(sql`
        SELECT c.name, ${w3c(sql`greatest(c.created_at, max(p.updated_at))`)} AS lastmod
        FROM collections c
        LEFT JOIN collection_projects cp ON cp.collection_id = c.id
        LEFT JOIN projects p ON p.id = cp.project_id AND p.status = 'published' AND p.hidden_at IS NULL
        GROUP BY c.id ORDER BY c.sort, c.id`);
      return (rows as { name: string; lastmod: string }[]).map((row) => ({ path: collectionPath(row.name), lastmod: row.lastmod }));
    }
    case 'pages': {
      // The lists change with every publication: its newest time is read from the index of the newest list.
      const { rows } = await db.execute(sql`SELECT ${w3c(sql`max(published_at)`)} AS lastmod FROM projects WHERE status = 'published' AND hidden_at IS NULL`);
      const newest = asText((rows[0] as { lastmod: unknown } | undefined)?.lastmod);
      return [
        { path: '/', lastmod: newest },
        { path: '/newest', lastmod: newest },
        { path: '/recommend', lastmod: newest },
        { path: '/donation-list', lastmod: null },
      ];
    }
  }
}
