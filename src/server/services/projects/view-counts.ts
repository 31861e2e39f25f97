/**
 * Project views, counted once per visitor per project per (UTC) day and never for crawlers.
 * A visitor is a signed-in user, or a guest identified by a hash of address, browser and day
 * (the raw address is never stored).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { isCrawler } from '../../../lib/user-agent.ts';
import { getDb } from '../../db/client.ts';
import { projects, projectViews } from '../../db/schema/index.ts';
import { log } from '../../log.ts';

/** The visitor key of a request, or null for a crawler (not counted). */
export function visitorKey(options: { userId: number | null; ip: string | null; userAgent: string | null; day: string }): string | null {
  if (isCrawler(options.userAgent)) return null;
  if (options.userId) return `u:${options.userId}`;
  const hash = createHash('sha256').update(`${options.ip ?? ''}|${options.userAgent ?? ''}|${options.day}`).digest('base64url');
  return `g:${hash.slice(0, 32)}`;
}

/** Today as `YYYY-MM-DD` (UTC). */
export function viewDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Counts a view of the project by `visitor` today, once: the view row and the counter change
 * together in one statement. Returns whether it counted.
 */
export async function recordProjectView(publicId: string, visitor: string, day = viewDay()): Promise<boolean> {
  const result = await getDb().execute(sql`
    WITH target AS (
      SELECT id FROM ${projects} WHERE public_id = ${publicId} AND status = 'published'
    ), inserted AS (
      INSERT INTO ${projectViews} (project_id, visitor, day) SELECT id, ${visitor}, ${day} FROM target
      ON CONFLICT DO NOTHING RETURNING project_id
    )
    UPDATE ${projects} SET view_count = view_count + 1
    WHERE id IN (SELECT project_id FROM inserted)`);
  return (result.rowCount ?? 0) > 0;
}

// Views this process already counted today: a reload by the same visitor skips the database
// write entirely. Bounded; the table's primary key stays the rule across instances.
const countedToday = new Set<string>();
let countedDay = '';
const COUNTED_MAX = 100_000;

/** Fire-and-forget version for page renders: never delays or fails the page. */
export function countProjectView(publicId: string, request: { userId: number | null; ip: string | null; userAgent: string | null }): void {
  const day = viewDay();
  const visitor = visitorKey({ ...request, day });
  if (!visitor) return;
  if (day !== countedDay || countedToday.size >= COUNTED_MAX) {
    countedToday.clear();
    countedDay = day;
  }
  const key = `${publicId}|${visitor}`;
  if (countedToday.has(key)) return;
  countedToday.add(key);
  recordProjectView(publicId, visitor, day).catch((error: unknown) => {
    countedToday.delete(key);
    log.warn({ component: 'views', err: error }, 'view not counted');
  });
}
