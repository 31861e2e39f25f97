import { count, isoDateTime, pageOf, serialId, userRefSchema, z } from './common.ts';

/** What members may report, why, and what staff may do about it (the API's own words). */
export const REPORT_KINDS = ['project', 'comment', 'video', 'user', 'log', 'make', 'collection'] as const;
export const REPORT_REASONS = ['spam', 'abuse', 'licence', 'other'] as const;
export const REPORT_ACTIONS = ['dismiss', 'hide', 'suspend'] as const;

export const reportSubmittedSchema = z
  .object({
    id: serialId,
    merged: z.boolean().meta({ description: 'True when this member already had an open report on the same target: that report is answered, unchanged.' }),
  })
  .meta({ id: 'ReportSubmitted' });

/** What was reported, as staff see it in the queue; null when it no longer exists. */
export const reportTargetSchema = z
  .object({
    ref: z.string().meta({ description: 'The id `report/submit` and `admin/content/restore` name it by (a member: their custom URL; a build log: `<project>/<n>`; a collection: `<member>/<slug>`).' }),
    title: z.string(),
    excerpt: z.string(),
    href: z.string(),
    author: userRefSchema.nullable(),
    hidden: z.boolean(),
    suspended: z.boolean().meta({ description: 'Whether the member behind the content is suspended.' }),
  })
  .meta({ id: 'ReportTarget' });

export const reportItemSchema = z
  .object({
    id: serialId,
    kind: z.enum(REPORT_KINDS),
    targetId: z.string(),
    reason: z.enum(REPORT_REASONS),
    note: z.string(),
    status: z.enum(['open', 'closed']),
    createdAt: isoDateTime,
    reporter: userRefSchema.nullable(),
    openOnTarget: count.meta({ description: 'Open reports on the same target, this one included.' }),
    target: reportTargetSchema.nullable(),
    resolution: z
      .object({ action: z.enum(REPORT_ACTIONS), by: userRefSchema.nullable(), at: isoDateTime, note: z.string() })
      .nullable(),
  })
  .meta({ id: 'ReportItem' });

export const reportPageSchema = pageOf(reportItemSchema).meta({ id: 'ReportPage' });

export const reportResolvedSchema = z
  .object({
    id: serialId,
    action: z.enum(REPORT_ACTIONS),
    closed: count.meta({ description: 'Reports closed by this action: every open report on the same target.' }),
    hidden: count.meta({ description: 'Items hidden by this action.' }),
  })
  .meta({ id: 'ReportResolved' });

export const contentRestoredSchema = z
  .object({ kind: z.enum(REPORT_KINDS), id: z.string(), restored: z.boolean() })
  .meta({ id: 'ContentRestored' });

export const auditEntrySchema = z
  .object({
    id: serialId,
    actor: userRefSchema.nullable(),
    action: z.string(),
    targetKind: z.string(),
    targetId: z.string(),
    note: z.string(),
    details: z.record(z.string(), z.unknown()),
    createdAt: isoDateTime,
  })
  .meta({ id: 'AuditEntry' });

export const auditPageSchema = pageOf(auditEntrySchema).meta({ id: 'AuditPage' });
