import { useStore } from '@nanostores/react';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX } from '../lib/collection-rules.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText, type Notice } from '../lib/notice.ts';
import { createOwnerTools, type OwnerToolsInit } from '../stores/member-collection.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ModalDialog } from './shared/ModalDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface CollectionOwnerToolsProps extends OwnerToolsInit {
  locale: string;
  messages: IslandMessages;
}

function Status({ message }: { message: Notice | null }) {
  const { t } = useTranslation();
  const alert = isAlert(message);
  return (
    <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'} aria-live="polite">
      {message ? noticeText(message, t) : ''}
    </p>
  );
}

/** A panel of the tools: the shared modal dialog, Escape closing it. */
function Panel({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  return (
    <ModalDialog open={open} title={title} onCancel={onClose} className="collection-panel">
      {children}
    </ModalDialog>
  );
}

function Tools(init: OwnerToolsInit) {
  const { t } = useTranslation();
  const tools = useIslandStore(() => createOwnerTools(init));
  const state = useStore(tools.$tools);
  const titleId = useId();
  const descriptionId = useId();
  return (
    <div className="collection-owner-tools" role="group" aria-label={t('memberCollections.ownerTools')}>
      <button type="button" className="btn" onClick={() => tools.open('details')}>
        {t('memberCollections.edit')}
      </button>
      <button type="button" className="btn" onClick={() => void tools.togglePublic()} disabled={state.busy}>
        {state.public ? t('memberCollections.makePrivate') : t('memberCollections.makePublic')}
      </button>
      <button type="button" className="btn" onClick={() => tools.open('organise')} disabled={state.entries.length === 0}>
        {t('memberCollections.organise')}
      </button>
      <button type="button" className="btn btn-danger" onClick={() => tools.open('delete')}>
        {t('memberCollections.delete')}
      </button>
      {state.panel === 'none' && <Status message={state.message} />}

      <Panel open={state.panel === 'details'} title={t('memberCollections.editTitle')} onClose={tools.close}>
        <form
          className="collection-details-form"
          onSubmit={(event) => {
            event.preventDefault();
            void tools.saveDetails();
          }}
        >
          <label htmlFor={titleId}>{t('memberCollections.titleLabel')}</label>
          <input id={titleId} type="text" value={state.draftTitle} maxLength={COLLECTION_TITLE_MAX} onChange={(event) => tools.typeTitle(event.target.value)} required />
          <label htmlFor={descriptionId}>{t('memberCollections.descriptionLabel')}</label>
          <textarea id={descriptionId} rows={4} value={state.draftDescription} maxLength={COLLECTION_DESCRIPTION_MAX} onChange={(event) => tools.typeDescription(event.target.value)} />
          <Status message={state.message} />
          <div className="actions">
            <button type="button" className="btn" onClick={tools.close} disabled={state.busy}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="btn btn-primary" disabled={state.busy}>
              {t('memberCollections.saveDetails')}
            </button>
          </div>
        </form>
      </Panel>

      <Panel open={state.panel === 'organise'} title={t('memberCollections.organiseTitle')} onClose={tools.close}>
        <ol className="collection-organiser">
          {state.entries.map((entry, index) => (
            <li key={entry.id} data-entry={entry.id}>
              <span className="collection-organiser-title">{entry.title}</span>
              <span className="collection-organiser-actions">
                <button type="button" className="btn" onClick={() => void tools.move(entry.id, -1)} disabled={state.busy || index === 0} aria-label={t('memberCollections.moveUp', { title: entry.title })}>
                  <span aria-hidden="true">↑</span>
                </button>
                <button type="button" className="btn" onClick={() => void tools.move(entry.id, 1)} disabled={state.busy || index === state.entries.length - 1} aria-label={t('memberCollections.moveDown', { title: entry.title })}>
                  <span aria-hidden="true">↓</span>
                </button>
                <button type="button" className="btn btn-danger" onClick={() => void tools.remove(entry.id)} disabled={state.busy} aria-label={t('memberCollections.remove', { title: entry.title })}>
                  <span aria-hidden="true">✕</span>
                </button>
              </span>
            </li>
          ))}
        </ol>
        {state.entries.length === 0 && <p>{t('memberCollections.empty')}</p>}
        <Status message={state.message} />
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={tools.close} disabled={state.busy}>
            {t('memberCollections.done')}
          </button>
        </div>
      </Panel>

      <ConfirmDialog
        open={state.panel === 'delete'}
        title={t('memberCollections.deleteTitle', { title: state.title })}
        confirmLabel={t('memberCollections.delete')}
        busy={state.busy}
        danger
        onConfirm={() => void tools.confirmDelete()}
        onCancel={tools.close}
      >
        <p>{t('memberCollections.deleteText')}</p>
        <Status message={state.message} />
      </ConfirmDialog>
    </div>
  );
}

/**
 * The owner's tools on their collection's page: edit, private/public, organise (move up or down,
 * take out) and delete. Only the owner's page renders it, so guests never load it.
 */
export default function CollectionOwnerTools({ locale, messages, ...props }: CollectionOwnerToolsProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Tools {...props} />
    </I18nProvider>
  );
}
