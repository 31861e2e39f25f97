import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { credentials, USER_ROLES, users, type UserRole } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from './sessions.ts';

/** Each role with what it includes: an admin may do everything a moderator may. */
const RANK: Record<UserRole, number> = { member: 0, moderator: 1, admin: 2 };

/** Whether `role` includes what `needed` may do. */
export function hasRole(role: UserRole, needed: UserRole): boolean {
  return RANK[role] >= RANK[needed];
}

/**
 * The check before every staff action, on the server: 401 `unauthorized` without a member,
 * 403 `forbidden` for a member whose role falls short. Answers the member, now known to be staff.
 */
export function requireRole(user: SessionUser | null, needed: Exclude<UserRole, 'member'>): SessionUser {
  if (!user) throw new AppError('unauthorized');
  if (!hasRole(user.role, needed)) throw new AppError('forbidden');
  return user;
}

export function isUserRole(value: string): value is UserRole {
  return (USER_ROLES as readonly string[]).includes(value);
}

/**
 * Gives the member signed up with `email` the role `role` (the operator's `npm run ops -- user:role`,
 * which is how the first admin is made). Answers who it was and their role before; null when no
 * member has that email. With `dryRun` nothing changes.
 */
export async function setRoleByEmail(
  email: string,
  role: UserRole,
  { dryRun = false }: { dryRun?: boolean } = {},
): Promise<{ userId: number; nickname: string; before: UserRole } | null> {
  const db = getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: users.id, nickname: users.nickname, role: users.role })
      .from(credentials)
      .innerJoin(users, eq(users.id, credentials.userId))
      .where(eq(credentials.email, email.trim().toLowerCase()))
      .for('update')
      .limit(1);
    if (!row) return null;
    if (!dryRun && row.role !== role) await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, row.id));
    return { userId: row.id, nickname: row.nickname, before: row.role };
  });
}
