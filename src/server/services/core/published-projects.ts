import { isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from '../../db/schema/index.ts';

/**
 * Content staff hid after a report (`hidden_at` set) stays visible to its author and to staff,
 * so they can see what was hidden and restore it; everyone else sees nothing of it. Staff are
 * recognised in the same statement (an uncorrelated subquery PostgreSQL runs once), so read
 * paths need only the viewer's id, as they already take it.
 *
 * `hiddenAt` and `owner` are the columns of the row; `viewerId` null is a guest.
 */
export function visibleTo(hiddenAt: AnyPgColumn, owner: AnyPgColumn, viewerId: number | null): SQL {
  if (viewerId === null) return isNull(hiddenAt);
  return or(
    isNull(hiddenAt),
    sql`${owner} = ${viewerId}`,
    sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${viewerId} AND ${users.role} IN ('moderator', 'admin'))`,
  )!;
}
