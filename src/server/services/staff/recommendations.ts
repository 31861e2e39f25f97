/**
 * Staff tools: projects pinned at the top of `/recommend` and the home page's recommendations.
 * A pinned project has `recommend_rank` 1…n (no gaps, renumbered on every change); the rest
 * follow by hot score. Every write goes through `staffWrite`.
 */
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { getDb, type Tx } from '../../db/client.ts';
import { projects } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { pageTags } from '../../page-cache/tags.ts';
import type { PinnedProject } from '../../../lib/contract/schemas/staff.ts';
import { staffWrite, type StaffActor } from './staff-writes.ts';
import { publishedProjectById } from '../core/index.ts';

const pinnedColumns = { internalId: projects.id, id: projects.publicId, title: projects.title, rank: projects.recommendRank };

/** The pinned projects in their order (published ones: others are never shown). */
export async function listPinnedProjects(db: Pick<Tx, 'select'> = getDb()): Promise<PinnedProject[]> {
  const rows = await db
    .select(pinnedColumns)
    .from(projects)
    .where(and(isNotNull(projects.recommendRank), eq(projects.status, 'published')))
    .orderBy(asc(projects.recommendRank), asc(projects.id));
  return rows.map((row) => ({ id: row.id, title: row.title, rank: row.rank! }));
}

/** Gives the pinned projects ranks 1…n in the order of `internalIds`. */
async function renumber(tx: Tx, internalIds: number[]): Promise<void> {
  for (const [index, id] of internalIds.entries()) await tx.update(projects).set({ recommendRank: index + 1 }).where(eq(projects.id, id));
}

async function pinnedIds(tx: Tx): Promise<{ internalId: number; id: string }[]> {
  return tx
    .select({ internalId: projects.id, id: projects.publicId })
    .from(projects)
    .where(isNotNull(projects.recommendRank))
    .orderBy(asc(projects.recommendRank), asc(projects.id))
    .for('update');
}

async function publishedProject(tx: Tx, publicId: string): Promise<{ internalId: number; title: string }> {
  const [row] = await tx
    .select({ internalId: projects.id, title: projects.title })
    .from(projects)
    .where(publishedProjectById(publicId, 'published'))
    .limit(1);
  if (!row) throw new AppError('project_not_found');
  return row;
}

const purge = [pageTags.lists];

/** Pins a published project at place `rank` (1: first; absent: last); pinned already, it moves there. */
export function pinProject(actor: StaffActor, input: { project: string; rank?: number | undefined }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'recommend.pin', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const project = await publishedProject(tx, input.project);
    const others = (await pinnedIds(tx)).filter((row) => row.internalId !== project.internalId).map((row) => row.internalId);
    const at = Math.min(input.rank ?? others.length + 1, others.length + 1) - 1;
    others.splice(at, 0, project.internalId);
    await renumber(tx, others);
    return { summary: `"${project.title}" pinned at ${at + 1} of ${others.length}`, item: await listPinnedProjects(tx) };
  });
}

/** Unpins a project: it goes back to its place by hot score. */
export function unpinProject(actor: StaffActor, input: { project: string }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'recommend.unpin', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const pinned = await pinnedIds(tx);
    const target = pinned.find((row) => row.id === input.project);
    if (!target) throw new AppError('validation', { project: 'not_pinned' });
    await tx.update(projects).set({ recommendRank: null }).where(eq(projects.id, target.internalId));
    await renumber(
      tx,
      pinned.filter((row) => row !== target).map((row) => row.internalId),
    );
    return { summary: `${input.project} unpinned`, item: await listPinnedProjects(tx) };
  });
}

/** Puts the pinned projects in a new order: `projects` must name each pinned project once. */
export function reorderPinned(actor: StaffActor, input: { projects: string[] }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'recommend.reorder', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const pinned = await pinnedIds(tx);
    const byId = new Map(pinned.map((row) => [row.id, row.internalId]));
    const same = input.projects.length === pinned.length && new Set(input.projects).size === pinned.length && input.projects.every((id) => byId.has(id));
    if (!same) throw new AppError('validation', { projects: 'reorder_mismatch' });
    await renumber(
      tx,
      input.projects.map((id) => byId.get(id)!),
    );
    return { summary: `${pinned.length} pinned projects reordered`, item: await listPinnedProjects(tx) };
  });
}

