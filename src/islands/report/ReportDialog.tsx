import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isAlert, noticeText } from '../../lib/notice.ts';
import { REPORT_NOTE_MAX, REPORT_REASON_CHOICES, type createReport } from '../../stores/report.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';

/**
 * The report dialog of one target: the reasons as radio buttons and a note, sent by the store.
 * Shared by the report button of pages and the comments island's per-comment control.
 */
export function ReportDialog({ report }: { report: ReturnType<typeof createReport> }) {
  const { t } = useTranslation();
  const { open, reason, note, busy, error } = useStore(report.$report);
  const noteId = useId();
  return (
    <ConfirmDialog
      open={open}
      title={t('report.title')}
      confirmLabel={t('report.send')}
      busyLabel={t('report.sending')}
      busy={busy}
      onConfirm={() => void report.send()}
      onCancel={report.close}
    >
      <fieldset className="report-reasons">
        <legend>{t('report.reasonLabel')}</legend>
        {REPORT_REASON_CHOICES.map((choice) => (
          <label key={choice} className="report-reason">
            <input type="radio" name={`${noteId}-reason`} value={choice} checked={reason === choice} onChange={() => report.chooseReason(choice)} />
            {t(`report.reason.${choice}`)}
          </label>
        ))}
      </fieldset>
      <label htmlFor={noteId}>{reason === 'other' ? t('report.noteRequiredLabel') : t('report.noteLabel')}</label>
      <textarea id={noteId} rows={3} maxLength={REPORT_NOTE_MAX} value={note} onChange={(event) => report.setNote(event.target.value)} />
      {error && (
        <p className={isAlert(error) ? 'status-message error' : 'status-message'} role={isAlert(error) ? 'alert' : 'status'}>
          {noticeText(error, t)}
        </p>
      )}
    </ConfirmDialog>
  );
}

/** The "Report" button and, once sent, the thanks in its place. */
export function ReportTrigger({ report, className = 'link-button' }: { report: ReturnType<typeof createReport>; className?: string }) {
  const { t } = useTranslation();
  const { sent } = useStore(report.$report);
  return (
    <>
      {sent ? (
        <span className="muted report-sent" role="status">
          {t('report.sent')}
        </span>
      ) : (
        <button type="button" className={className} onClick={report.openDialog}>
          {t('report.open')}
        </button>
      )}
      <ReportDialog report={report} />
    </>
  );
}
