import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { noticeText } from '../lib/notice.ts';
import { createMakeDelete } from '../stores/make-delete.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface MakeDeleteProps {
  makeId: number;
  /** The reader made it (else they own the project it was made from, and remove it from there). */
  own: boolean;
  locale: string;
  messages: IslandMessages;
}

function Delete({ makeId, own }: { makeId: number; own: boolean }) {
  const { t } = useTranslation();
  const remove = useIslandStore(() => createMakeDelete(makeId, () => window.location.reload()));
  const { confirming, busy, error } = useStore(remove.$delete);
  return (
    <div className="make-actions">
      <button type="button" className="btn btn-danger" onClick={remove.ask}>
        {own ? t('makes.delete') : t('makes.remove')}
      </button>
      {error && (
        <p className="status-message error" role="alert">
          {noticeText(error, t)}
        </p>
      )}
      <ConfirmDialog open={confirming} title={own ? t('makes.deleteConfirm') : t('makes.removeConfirm')} confirmLabel={own ? t('makes.delete') : t('makes.remove')} busyLabel={t('makes.deleting')} busy={busy} danger onConfirm={() => void remove.confirm()} onCancel={remove.cancel} />
    </div>
  );
}

/** "Delete" under a make for its maker, "Remove" for the project's owner; hydrated with `client:interaction`. */
export default function MakeDelete({ locale, messages, makeId, own }: MakeDeleteProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Delete makeId={makeId} own={own} />
    </I18nProvider>
  );
}
