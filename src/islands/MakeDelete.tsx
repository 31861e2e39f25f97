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
  locale: string;
  messages: IslandMessages;
}

function Delete({ makeId }: { makeId: number }) {
  const { t } = useTranslation();
  const remove = useIslandStore(() => createMakeDelete(makeId, () => window.location.reload()));
  const { confirming, busy, error } = useStore(remove.$delete);
  return (
    <div className="make-actions">
      <button type="button" className="btn btn-danger" onClick={remove.ask}>
        {t('makes.delete')}
      </button>
      {error && (
        <p className="status-message error" role="alert">
          {noticeText(error, t)}
        </p>
      )}
      <ConfirmDialog open={confirming} title={t('makes.deleteConfirm')} confirmLabel={t('makes.delete')} busyLabel={t('makes.deleting')} busy={busy} danger onConfirm={() => void remove.confirm()} onCancel={remove.cancel} />
    </div>
  );
}

/** "Delete" under a make, for its maker only; hydrated with `client:interaction`. */
export default function MakeDelete({ locale, messages, makeId }: MakeDeleteProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Delete makeId={makeId} />
    </I18nProvider>
  );
}
