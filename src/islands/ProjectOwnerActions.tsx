import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../lib/api-client.ts';
import { errorMessage } from '../lib/contract/errors.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';

export interface ProjectOwnerActionsProps {
  projectId: string;
  title: string;
  editHref: string;
  /** Where to go once the project is deleted (the owner's page). */
  afterDeleteHref: string;
  locale: string;
  messages: IslandMessages;
}

function OwnerActions({ projectId, title, editHref, afterDeleteHref }: Omit<ProjectOwnerActionsProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hydrated = useHydrated();

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await apiCall('project/del', { id: projectId });
      window.location.assign(afterDeleteHref);
    } catch (failure) {
      setBusy(false);
      setOpen(false);
      setError(errorMessage(failure, t));
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
export default function ProjectOwnerActions({ locale, messages, ...props }: ProjectOwnerActionsProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <OwnerActions {...props} />
    </I18nProvider>
  );
}
