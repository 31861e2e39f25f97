import { desc, eq, isNull } from 'drizzle-orm';
import { escapeXml } from '../../lib/xml.ts';
import { getDb } from '../db/client.ts';
import { collections, projects, users } from '../db/schema/index.ts';
import { projectPath, userPath, collectionPath } from '../../lib/paths.ts';
import { isListed } from './cards.ts';

/** RSS 2.0 of the newest published projects. */
export async function buildRss(origin: string, title: string, description: string): Promise<string> {
  const rows = await getDb()
    .select({ id: projects.publicId, title: projects.title, summary: projects.summary, publishedAt: projects.publishedAt, author: users.nickname })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(isListed)
    .orderBy(desc(projects.publishedAt))
    .limit(30);
  const items = rows
    .map((row) => {
      const link = `${origin}${projectPath(row.id)}`;
      return `<item><title>${escapeXml(row.title)}</title><link>${escapeXml(link)}</link><guid isPermaLink="true">${escapeXml(link)}</guid><description>${escapeXml(row.summary)}</description><dc:creator>${escapeXml(row.author)}</dc:creator><pubDate>${row.publishedAt.toUTCString()}</pubDate></item>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${escapeXml(title)}</title><link>${escapeXml(origin)}/</link><atom:link href="${escapeXml(origin)}/rss.xml" rel="self" type="application/rss+xml"/><description>${escapeXml(description)}</description>${items}</channel></rss>`;
}

/** A sitemap of the public pages: lists, every published project, member and collection. */
export async function buildSitemap(origin: string): Promise<string> {
  const db = getDb();
  const [projectRows, userRows, collectionRows] = await Promise.all([
    db.select({ id: projects.publicId, updatedAt: projects.updatedAt }).from(projects).where(isListed).orderBy(desc(projects.updatedAt)).limit(40_000),
    db.select({ url: users.customUrl }).from(users).where(isNull(users.hiddenAt)).limit(9_000),
    db.select({ name: collections.name }).from(collections),
  ]);
  const url = (path: string, lastmod?: Date) =>
    `<url><loc>${escapeXml(origin + path)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`;
  const entries = [
    url('/'),
    url('/newest'),
    url('/recommend'),
    url('/donation-list'),
    ...projectRows.map((row) => url(projectPath(row.id), row.updatedAt)),
    ...userRows.map((row) => url(userPath(row.url))),
    ...collectionRows.map((row) => url(collectionPath(row.name))),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;
}
