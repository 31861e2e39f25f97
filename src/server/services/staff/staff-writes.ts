/**
 * The one way the staff tools for content write: every action (a banner saved, a project pinned,
 * tags merged…) runs through `staffWrite`, from the API and from `npm run ops` alike. It checks
 * who acts, runs the action in one transaction (rolled back at the end for a dry run, so a dry
 * run meets exactly the refusals the real one would), and purges the guest pages it changed once
 * committed.
 */
import { TransactionRollbackError } from 'drizzle-orm';
import { getDb, type Tx } from '../../db/client.ts';
import { purgePages } from '../../page-cache/tags.ts';
import { writeAudit } from './moderation.ts';
import { requireRole } from '../accounts/index.ts';
import type { SessionUser } from '../accounts/index.ts';

/** Who acts: a member of staff through the site, or the operator at the console (`npm run ops`). */
export type StaffActor = { kind: 'member'; user: SessionUser | null } | { kind: 'operator' };

export const OPERATOR: StaffActor = { kind: 'operator' };
export const staffMember = (user: SessionUser | null): StaffActor => ({ kind: 'member', user });


export interface StaffWriteOptions {
  /** Names the action, `banner.save`, `tag.merge`… (what an audit entry would record). */
  action: string;
  actor: StaffActor;
  /** Everything is checked and nothing is kept. */
  dryRun?: boolean;
  /** The page-cache tags of what guests see change (`pageTags`). */
  purge: string[];
}

/**
 * Runs one staff action. Members must be admins (403 `forbidden` otherwise, before anything is
 * read); the operator at the console is trusted as the database's owner. Answers what `write`
 * answered, also for a dry run.
 */
export async function staffWrite<T>(options: StaffWriteOptions, write: (tx: Tx) => Promise<T>): Promise<T> {
  if (options.actor.kind === 'member') requireRole(options.actor.user, 'admin');
  let result: { value: T } | null = null;
  try {
    await getDb().transaction(async (tx) => {
      result = { value: await write(tx) };
      // Every staff action lands in the audit log with the change it made, or not at all.
      await writeAudit(tx, {
        actorId: options.actor.kind === 'member' ? options.actor.user!.id : null,
        action: options.action,
        targetKind: options.action.split('.')[0]!,
        targetId: auditTarget(result.value),
        note: '',
        details: options.actor.kind === 'operator' ? { by: 'operator' } : {},
      });
      if (options.dryRun) tx.rollback();
    });
  } catch (error) {
    if (!(options.dryRun && error instanceof TransactionRollbackError && result)) throw error;
  }
  if (!options.dryRun) purgePages(...options.purge);
  return (result as unknown as { value: T }).value;
}

/** What an action's answer names (a banner's id, a collection's name, a tag's slug), for the audit log. */
function auditTarget(result: unknown): string {
  if (result && typeof result === 'object') {
    for (const key of ['id', 'slug', 'name', 'project'] as const) {
      const value = (result as Record<string, unknown>)[key];
      if (typeof value === 'string' || typeof value === 'number') return String(value);
    }
  }
  return '';
}
