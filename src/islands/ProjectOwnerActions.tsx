import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { noticeText } from '../lib/notice.ts';
import { createProjectOwner } from '../stores/project-owner.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

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
  const owner = useIslandStore(() => createProjectOwner(projectId, afterDeleteHref));
  const { confirming, busy, error } = useStore(owner.$owner);

  return (
    <div className="owner-actions-box">
      <div className="owner-actions">
        <a className="btn" href={editHref}>
          {t('project.edit')}
        </a>
        <button type="button" className="btn btn-danger" onClick={owner.askDelete}>
          {t('project.delete')}
        </button>
      </div>
      {error && (
        <p className="status-message error" role="alert">
          {noticeText(error, t)}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('project.deleteTitle')}
        confirmLabel={t('project.deleteConfirm')}
        busyLabel={t('project.deleting')}
        busy={busy}
        danger
        onConfirm={() => void owner.confirmDelete()}
        onCancel={owner.cancelDelete}
      >
        <p>{t('project.deleteText', { title })}</p>
      </ConfirmDialog>
    </div>
  );
}

/**
 * Edit and delete (with confirmation) for the owner on the project page. Hydrated with
 * `client:interaction`: an early press on Delete is held and performed once the code is here.
 */
export default function ProjectOwnerActions({ locale, messages, ...props }: ProjectOwnerActionsProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <OwnerActions {...props} />
    </I18nProvider>
  );
}
