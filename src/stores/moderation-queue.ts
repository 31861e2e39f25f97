import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { z } from 'zod';
import type { REPORT_ACTIONS, reportItemSchema } from '../lib/contract/schemas/moderation.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

export type ReportAction = (typeof REPORT_ACTIONS)[number];
export type ReportItem = z.infer<typeof reportItemSchema>;

/** What staff are typing for one report: the note of their action and, to suspend, whether to hide everything. */
export interface ReportDraft {
  note: string;
  hideContent: boolean;
}

export interface ModerationQueueState {
  reports: ReportItem[];
  drafts: Record<number, ReportDraft>;
  /** The report being acted on. */
  busyId: number | null;
  /** A notice per report: the outcome of its action, or why it failed. */
  notices: Record<number, Notice>;
}

const emptyDraft: ReportDraft = { note: '', hideContent: false };

/** The outcome's message key, for the notice left where the report was. */
const DONE_KEY: Record<ReportAction, string> = {
  dismiss: 'admin.reports.done.dismiss',
  hide: 'admin.reports.done.hide',
  suspend: 'admin.reports.done.suspend',
};

/** The same target: acting on one report closes every open report on it. */
const sameTarget = (a: ReportItem, b: ReportItem) => a.kind === b.kind && a.targetId === b.targetId;

/**
 * The moderation queue on `/admin/reports`: a page of open reports, a note per report, and the
 * actions (dismiss, hide, suspend) sent as `admin/report/resolve`. A handled report leaves the
 * queue with the other reports on its target (the server closed them too), leaving a notice; a
 * hidden target can be restored from a report that is still listed.
 */
export function createModerationQueue(reports: ReportItem[]) {
  const $queue = map<ModerationQueueState>({ reports, drafts: {}, busyId: null, notices: {} });

  const draftOf = (id: number): ReportDraft => $queue.get().drafts[id] ?? emptyDraft;

  function setDraft(id: number, change: Partial<ReportDraft>): void {
    const state = $queue.get();
    $queue.set({ ...state, drafts: { ...state.drafts, [id]: { ...draftOf(id), ...change } } });
  }

  async function resolve(id: number, action: ReportAction): Promise<boolean> {
    const state = $queue.get();
    const report = state.reports.find((item) => item.id === id);
    if (!report || state.busyId !== null) return false;
    const draft = draftOf(id);
    $queue.set({ ...state, busyId: id, notices: withoutKey(state.notices, id) });
    try {
      const note = draft.note.trim();
      await apiCall('admin/report/resolve', { id, action, ...(note ? { note } : {}), ...(action === 'suspend' ? { hideContent: draft.hideContent } : {}) });
      const after = $queue.get();
      $queue.set({
        ...after,
        busyId: null,
        reports: after.reports.filter((item) => !sameTarget(item, report)),
        notices: { ...after.notices, [id]: say(DONE_KEY[action], { title: report.target?.title ?? report.targetId }) },
      });
      return true;
    } catch (error) {
      const after = $queue.get();
      $queue.set({ ...after, busyId: null, notices: { ...after.notices, [id]: fail(error) } });
      return false;
    }
  }

  /** Shows a report's hidden target again (`admin/content/restore`); the report stays open. */
  async function restore(id: number): Promise<boolean> {
    const state = $queue.get();
    const report = state.reports.find((item) => item.id === id);
    if (!report?.target || state.busyId !== null) return false;
    $queue.set({ ...state, busyId: id, notices: withoutKey(state.notices, id) });
    try {
      await apiCall('admin/content/restore', { kind: report.kind, id: report.target.ref });
      const after = $queue.get();
      $queue.set({
        ...after,
        busyId: null,
        reports: after.reports.map((item) => (sameTarget(item, report) && item.target ? { ...item, target: { ...item.target, hidden: false, suspended: false } } : item)),
        notices: { ...after.notices, [id]: say('admin.reports.done.restore', { title: report.target.title }) },
      });
      return true;
    } catch (error) {
      const after = $queue.get();
      $queue.set({ ...after, busyId: null, notices: { ...after.notices, [id]: fail(error) } });
      return false;
    }
  }

  return { $queue, draftOf, setDraft, resolve, restore };
}

function withoutKey<T>(record: Record<number, T>, key: number): Record<number, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
