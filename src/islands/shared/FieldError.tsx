import { useTranslation } from 'react-i18next';
import { noticeText, type Notice } from '../../lib/notice.ts';

/** A field's error under it, when there is one: `${id}-error`, for the field's `aria-describedby`. */
export function FieldError({ id, notice }: { id: string; notice: Notice | null | undefined }) {
  const { t } = useTranslation();
  return notice ? (
    <p className="error" id={`${id}-error`}>
      {noticeText(notice, t)}
    </p>
  ) : null;
}
