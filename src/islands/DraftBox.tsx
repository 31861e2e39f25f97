import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import type { DraftItem } from '../lib/api-types.ts';
import { formatDate } from '../lib/format.ts';
import type { Locale } from '../lib/i18n.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createDraftBox } from '../stores/draft-box.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';

export interface DraftBoxProps {
  drafts: DraftItem[];
  /** `/create/project` in the page's variant. */
  createPath: string;
  locale: string;
  messages: IslandMessages;
}

function Drafts({ drafts: initial, createPath, locale }: Omit<DraftBoxProps, 'messages'>) {
  const { t } = useTranslation();
  const box = useIslandStore(() => createDraftBox(initial, t('user.untitledDraft')));
  const { drafts, deleting, busy, message } = useStore(box.$drafts);
  const hydrated = useHydrated();
  const alert = isAlert(message);

  return (
    <div>
      <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'}>
        {message ? noticeText(message, t) : ''}
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
                  <p className="muted">{t('drafts.savedAt', { date: formatDate(draft.updatedAt, locale as Locale) })}</p>
                </div>
                <div className="actions">
                  <a className="btn btn-primary" href={`${createPath}?draft=${encodeURIComponent(draft.id)}`} aria-label={t('drafts.continueLabel', { title })}>
                    {t('user.continueDraft')}
                  </a>
                  <button type="button" className="btn btn-danger" onClick={() => box.askDelete(draft)} disabled={!hydrated} aria-label={t('drafts.deleteLabel', { title })}>
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
        onConfirm={() => void box.confirmDelete()}
        onCancel={box.cancelDelete}
      >
        <p>{deleting?.projectTitle ? t('drafts.deleteEditText', { title: deleting.projectTitle }) : t('drafts.deleteText', { title: deleting?.title || t('user.untitledDraft') })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** The owner's draft box: continue a draft or delete it (after confirming). */
export default function DraftBox({ messages, ...props }: DraftBoxProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Drafts {...props} />
    </I18nProvider>
  );
}
