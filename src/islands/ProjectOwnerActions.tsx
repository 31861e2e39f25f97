import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';

export interface ProjectOwnerActionsProps {
  projectId: string;
  title: string;
  editHref: string;
  /** Where to go once the project is deleted (the owner's page). */
  afterDeleteHref: string;
  locale: string;
}

function OwnerActions({ projectId, title, editHref, afterDeleteHref }: Omit<ProjectOwnerActionsProps, 'locale'>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await apiCall('project/del', { id: projectId });
      window.location.assign(afterDeleteHref);
    } catch (failure) {
      setBusy(false);
      setOpen(false);
      setError(failure instanceof ApiError ? t(`errors.${failure.errorKey}`, { defaultValue: t('errors.internal') }) : t('errors.internal'));
    }
  }

  return (
    <div className="owner-actions-box">
      <div className="owner-actions">
        <a className="btn" href={editHref}>
          {t('project.edit')}
        </a>
        <button type="button" className="btn btn-danger" onClick={() => setOpen(true)} disabled={!hydrated}>
          {t('project.delete')}
        </button>
      </div>
      {error && (
        <p className="status-message error" role="alert">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={open}
        title={t('project.deleteTitle')}
        confirmLabel={t('project.deleteConfirm')}
        busyLabel={t('project.deleting')}
        busy={busy}
        danger
        onConfirm={() => void remove()}
        onCancel={() => setOpen(false)}
      >
        <p>{t('project.deleteText', { title })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** Edit and delete (with confirmation) for the owner on the project page. */
export default function ProjectOwnerActions({ locale, ...props }: ProjectOwnerActionsProps) {
  return (
    <I18nProvider locale={locale}>
      <OwnerActions {...props} />
    </I18nProvider>
  );
}
