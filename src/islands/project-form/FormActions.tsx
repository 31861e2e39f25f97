import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import { isAlert, noticeText } from '../../lib/notice.ts';
import type { FieldName, ProjectFormStore } from '../../stores/project-form.ts';
import { useHydrated } from '../use-hydrated.ts';

interface FormActionsProps {
  form: ProjectFormStore;
  /** Moves focus to the first field the server (or the form) refused. */
  focusField: (name: FieldName | null) => void;
}

/** The form's status line and its buttons: save draft, preview, publish (submit). */
export function FormActions({ form, focusField }: FormActionsProps) {
  const { t } = useTranslation();
  const { busy, status } = useStore(form.$form);
  const dirty = useStore(form.$dirty);
  const hydrated = useHydrated();
  const alert = isAlert(status?.notice);
  return (
    <div className="form-actions card">
      <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'} data-testid="form-status">
        {status && noticeText(status.notice, t)}
        {status?.link && (
          <>
            {' '}
            <a href={status.link} target="_blank" rel="noopener">
              {t('form.openPreview')}
            </a>
          </>
        )}
        {!status && dirty && hydrated && <span className="muted">{t('form.unsaved')}</span>}
      </p>
      <div className="buttons">
        <button type="button" className="btn" onClick={() => void form.saveDraft().then(focusField)} disabled={busy !== null || !hydrated}>
          {busy === 'draft' ? t('form.saving') : t('form.saveDraft')}
        </button>
        <button type="button" className="btn" onClick={() => void form.preview().then(focusField)} disabled={busy !== null || !hydrated}>
          {busy === 'preview' ? t('form.previewing') : t('form.openPreviewButton')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy !== null || !hydrated}>
          {busy === 'publish' ? t('form.publishing') : form.projectId ? t('form.update') : t('form.publish')}
        </button>
      </div>
    </div>
  );
}
