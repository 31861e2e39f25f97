import { describe, expect, it } from 'vitest';
import { createReport, REPORT_NOTE_MAX, reportProblem } from '../../src/stores/report.ts';

describe('the report dialog store', () => {
  it('needs a reason, a note for "other", and a note within the server’s limit', () => {
    expect(reportProblem({ reason: null, note: '' })).toEqual({ key: 'report.chooseReason' });
    expect(reportProblem({ reason: 'spam', note: '' })).toBeNull();
    expect(reportProblem({ reason: 'other', note: '   ' })).toEqual({ field: 'required', key: 'report.noteRequired' });
    expect(reportProblem({ reason: 'other', note: 'Stolen design' })).toBeNull();
    expect(reportProblem({ reason: 'abuse', note: 'x'.repeat(REPORT_NOTE_MAX + 1) })).toEqual({ field: 'too_big' });
  });

  it('opens empty, clears the error as the member types, and closes back to empty', () => {
    const report = createReport('comment', 12);
    report.openDialog();
    report.setNote('draft');
    expect(report.$report.get()).toMatchObject({ open: true, note: 'draft', reason: null });
    report.close();
    expect(report.$report.get()).toMatchObject({ open: false, note: '', reason: null, sent: false });
  });
});
