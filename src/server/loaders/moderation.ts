import { listAudit, listReports } from '../services/staff/index.ts';
import { staffOnly } from './admin.ts';
import { ok, pageParam, type PageLoader } from './page.ts';

/** Reports a page of the queue shows. */
export const REPORTS_PAGE_SIZE = 20;
/** Entries a page of the audit log shows. */
export const AUDIT_PAGE_SIZE = 50;

/** `/admin/reports[?status=closed]`: the moderation queue (moderators and admins). */
export const loadAdminReports = (async (context) => {
  const denied = staffOnly(context, 'moderator');
  if (denied) return denied;
  const status: 'open' | 'closed' = context.url.searchParams.get('status') === 'closed' ? 'closed' : 'open';
  return ok({ status, reports: await listReports({ status, page: pageParam(context.url), pageSize: REPORTS_PAGE_SIZE }) });
}) satisfies PageLoader<unknown>;

/** `/admin/audit`: every staff action, newest first (admins). */
export const loadAdminAudit = (async (context) => {
  const denied = staffOnly(context, 'admin');
  if (denied) return denied;
  return ok({ entries: await listAudit({ page: pageParam(context.url), pageSize: AUDIT_PAGE_SIZE }) });
}) satisfies PageLoader<unknown>;
