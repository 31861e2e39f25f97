import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/contract/errors.ts';
import { isAlert, noticeText, type Notice } from '../../lib/notice.ts';

/** What the last staff action said: a status line, or an alert when it failed. */
export function StaffStatus({ notice }: { notice: Notice | null }) {
  const { t } = useTranslation();
  const alert = isAlert(notice);
  return (
    // Kept in the page while empty (a live region announces what is put into it), but not shown.
    <p className={notice ? (alert ? 'field-error' : 'form-status') : 'visually-hidden'} role={alert ? 'alert' : 'status'} data-testid="staff-status">
      {notice ? noticeText(notice, t) : ''}
    </p>
  );
}

/** A field's error from the last action, under its input. */
export function FieldError({ id, fields, name }: { id: string; fields: Record<string, string>; name: string }) {
  const { t } = useTranslation();
  const key = fields[name];
  return key ? (
    <span className="field-error" id={id}>
      {fieldMessage(key, t)}
    </span>
  ) : null;
}
