import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { REPORT_KINDS, REPORT_REASONS } from '../lib/contract/schemas/moderation.ts';
import { fail, invalid, say, type Notice } from '../lib/notice.ts';

export type ReportKind = (typeof REPORT_KINDS)[number];
export type ReportReason = (typeof REPORT_REASONS)[number];

/** The reasons the dialog offers, in the order it lists them. */
export const REPORT_REASON_CHOICES: readonly ReportReason[] = ['spam', 'abuse', 'licence', 'other'];
/** The server's limit on a report's note. */
export const REPORT_NOTE_MAX = 1000;

export interface ReportState {
  open: boolean;
  reason: ReportReason | null;
  note: string;
  busy: boolean;
  /** Why the report cannot be sent, or why sending failed. */
  error: Notice | null;
  /** Sent (or already sent and still open): the dialog thanks the member. */
  sent: boolean;
}

const initial: ReportState = { open: false, reason: null, note: '', busy: false, error: null, sent: false };

/** What is wrong with a report before it is sent: a reason is needed, and "other" needs a note. */
export function reportProblem(state: Pick<ReportState, 'reason' | 'note'>): Notice | null {
  if (!state.reason) return say('report.chooseReason');
  const note = state.note.trim();
  if (state.reason === 'other' && !note) return invalid('required', 'report.noteRequired');
  if (note.length > REPORT_NOTE_MAX) return invalid('too_big');
  return null;
}

/**
 * The "Report" control of one project, comment, video or profile: a dialog with the reasons and
 * a note, sent as `report/submit`. Reporting again what the member already reported (still open)
 * is thanked the same: the server answers the report already open.
 */
export function createReport(kind: ReportKind, id: string | number) {
  const $report = map<ReportState>({ ...initial });

  function openDialog(): void {
    $report.set({ ...initial, open: true });
  }

  function close(): void {
    if (!$report.get().busy) $report.set({ ...initial });
  }

  function chooseReason(reason: ReportReason): void {
    $report.set({ ...$report.get(), reason, error: null });
  }

  function setNote(note: string): void {
    $report.set({ ...$report.get(), note, error: null });
  }

  async function send(): Promise<boolean> {
    const state = $report.get();
    if (state.busy || state.sent) return state.sent;
    const problem = reportProblem(state);
    if (problem) {
      $report.setKey('error', problem);
      return false;
    }
    $report.set({ ...state, busy: true, error: null });
    try {
      const note = state.note.trim();
      await apiCall('report/submit', { kind, id, reason: state.reason, ...(note ? { note } : {}) });
      $report.set({ ...$report.get(), busy: false, sent: true, open: false });
      return true;
    } catch (error) {
      $report.set({ ...$report.get(), busy: false, error: fail(error) });
      return false;
    }
  }

  return { $report, openDialog, close, chooseReason, setNote, send };
}
