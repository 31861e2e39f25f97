import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import type { REPORT_ACTIONS, REPORT_KINDS, REPORT_REASONS } from '../../../lib/contract/schemas/moderation.ts';

/** What members may report; each is hidden and restored the same way. */
export type ReportKind = (typeof REPORT_KINDS)[number];
export type ReportReason = (typeof REPORT_REASONS)[number];
export type ReportAction = (typeof REPORT_ACTIONS)[number];

export type ReportStatus = 'open' | 'closed';

/**
 * A member's report of a project, comment, video, profile, build log, make or collection.
 * `targetId` is how the target is stored: a project's or video's public id, a comment's or make's
 * number, a build log as `<project public id>/<n>`, a member's or a collection's internal id (so a
 * report survives a change of address); `targetUserId` is whose content it is, so suspension needs no second lookup. One
 * open report per reporter and target: reporting again is answered with the report already open.
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ReportKind>().notNull(),
    targetId: text('target_id').notNull(),
    targetUserId: integer('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').$type<ReportReason>().notNull(),
    note: text('note').notNull().default(''),
    status: text('status').$type<ReportStatus>().notNull().default('open'),
    action: text('action').$type<ReportAction>(),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionNote: text('resolution_note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reports_open_once_key').on(t.reporterId, t.kind, t.targetId).where(sql`${t.status} = 'open'`),
    index('reports_queue_idx').on(t.status, t.createdAt),
    index('reports_target_idx').on(t.kind, t.targetId),
    check('reports_kind_check', sql`${t.kind} IN ('project', 'comment', 'video', 'user', 'log', 'make', 'collection')`),
    check('reports_status_check', sql`${t.status} IN ('open', 'closed')`),
  ],
);

/** Every staff action, for admins: who did what to which target, when and why. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id').notNull(),
    note: text('note').notNull().default(''),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);
