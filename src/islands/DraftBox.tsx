import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../lib/api-client.ts';
import { errorMessage } from '../lib/contract/errors.ts';
import { formatDate } from '../lib/format.ts';
import type { DraftItem } from '../lib/api-types.ts';
import type { Locale } from '../lib/i18n.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';

export interface DraftBoxProps {
  drafts: DraftItem[];
  /** `/create/project` in the page's variant. */
  createPath: string;
  locale: string;
  messages: IslandMessages;
}

function Drafts({ drafts: initial, createPath }: Omit<DraftBoxProps, 'locale' | 'messages'>) {
  const { t, i18n } = useTranslation();
  const [drafts, setDrafts] = useState(initial);
  const [deleting, setDeleting] = useState<DraftItem | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const hydrated = useHydrated();

  async function remove() {
    if (!deleting) return;
    setBusy(true);
    try {
      await apiCall('temporary/del', { id: deleting.id });
      setDrafts((list) => list.filter((draft) => draft.id !== deleting.id));
      setMessage({ text: t('drafts.deleted', { title: deleting.title || t('user.untitledDraft') }), error: false });
    } catch (error) {
      setMessage({ text: errorMessage(error, t), error: true });
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  }

  return (
    <div>
      <p className={`status-message${message?.error ? ' error' : ''}`} role={message?.error ? 'alert' : 'status'}>
        {message?.text ?? ''}
      </p>
      {drafts.length === 0 ? (
        <div className="empty card">
          <h2>{t('user.noDrafts')}</h2>
          <a className="btn btn-primary" href={createPath}>
            {t('drafts.create')}
          </a>
        </div>
      ) : (
        <ul className="draft-list">
          {drafts.map((draft) => {
            const title = draft.title || t('user.untitledDraft');
            return (
              <li key={draft.id} className="card draft-item" data-draft-id={draft.id}>
                {draft.cover ? <img className="thumb" src={draft.cover} alt="" width={96} height={72} loading="lazy" /> : <span className="thumb" aria-hidden="true" />}
                <div className="info">
                  <h3>{title}</h3>
                  {draft.projectTitle && <p className="muted">{t('drafts.editOf', { title: draft.projectTitle })}</p>}
                  {draft.summary && <p>{draft.summary}</p>}
                  <p className="muted">
                    {t('drafts.savedAt', { date: formatDate(draft.updatedAt, i18n.language as Locale) })}
                  </p>
                </div>
                <div className="actions">
                  <a className="btn btn-primary" href={`${createPath}?draft=${encodeURIComponent(draft.id)}`} aria-label={t('drafts.continueLabel', { title })}>
                    {t('user.continueDraft')}
                  </a>
                  <button type="button" className="btn btn-danger" onClick={() => setDeleting(draft)} disabled={!hydrated} aria-label={t('drafts.deleteLabel', { title })}>
                    {t('common.delete')}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('drafts.deleteTitle')}
        confirmLabel={t('drafts.deleteConfirm')}
        busyLabel={t('drafts.deleting')}
        busy={busy}
        danger
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p>{deleting?.projectTitle ? t('drafts.deleteEditText', { title: deleting.projectTitle }) : t('drafts.deleteText', { title: deleting?.title || t('user.untitledDraft') })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** The owner's draft box: continue a draft or delete it (after confirming). */
export default function DraftBox({ locale, messages, ...props }: DraftBoxProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Drafts {...props} />
    </I18nProvider>
  );
}
