import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { COLLECTION_TITLE_MAX } from '../lib/collection-rules.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createSaveMenu, type SaveMenu, type SaveMenuInit } from '../stores/save-to-collection.ts';
import { I18nProvider } from './i18n.tsx';
import { ModalDialog } from './shared/ModalDialog.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface SaveToCollectionProps extends SaveMenuInit {
  locale: string;
  messages: IslandMessages;
}

function Menu(init: SaveMenuInit) {
  const { t } = useTranslation();
  const menu = useIslandStore(() => createSaveMenu(init));
  const state = useStore(menu.$menu);
  return (
    <div className="save-collection save-collection-page">
      <button type="button" className="btn" aria-haspopup="dialog" aria-expanded={state.open} onClick={menu.toggle} data-testid="save-to-collection">
        <span aria-hidden="true">＋</span> {t('memberCollections.saveLong')}
      </button>
      <SaveMenuDialog menu={menu} />
    </div>
  );
}

/** One project's save menu: the member's collections, ticked where it is saved, and "New collection…". */
export function SaveMenuDialog({ menu }: { menu: SaveMenu }) {
  const { t } = useTranslation();
  const state = useStore(menu.$menu);
  const fieldId = useId();
  const alert = isAlert(state.message);
  return (
    <ModalDialog open={state.open} title={t('memberCollections.dialogTitle')} onCancel={menu.close} className="save-collection-dialog">
      {state.loading && <p role="status">{t('memberCollections.loading')}</p>}
      {state.loaded && state.collections.length > 0 && (
        <fieldset className="save-collection-list">
          <legend className="visually-hidden">{t('memberCollections.yourCollections')}</legend>
          {state.collections.map((row) => (
            <label key={row.slug} className="save-collection-row">
              <input
                type="checkbox"
                checked={row.checked}
                disabled={state.pending !== null}
                onChange={(event) => void menu.setMembership(row.slug, event.target.checked)}
              />
              <span>{row.title}</span>
              {!row.public && <span className="chip private-badge">{t('memberCollections.private')}</span>}
            </label>
          ))}
        </fieldset>
      )}
      {state.loaded && !state.creating && (
        <button type="button" className="link-button" onClick={menu.startNew}>
          {t('memberCollections.new')}
        </button>
      )}
      {state.creating && (
        <form
          className="save-collection-new"
          onSubmit={(event) => {
            event.preventDefault();
            void menu.createCollection();
          }}
        >
          <label htmlFor={fieldId}>{t('memberCollections.newTitle')}</label>
          <input id={fieldId} type="text" value={state.newTitle} maxLength={COLLECTION_TITLE_MAX} onChange={(event) => menu.typeTitle(event.target.value)} autoFocus />
          <label className="save-collection-public">
            <input type="checkbox" checked={state.newPublic} onChange={(event) => menu.setNewPublic(event.target.checked)} />
            {t('memberCollections.public')}
          </label>
          <button type="submit" className="btn btn-primary" disabled={state.pending !== null}>
            {t('memberCollections.create')}
          </button>
        </form>
      )}
      <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'} aria-live="polite">
        {state.message ? noticeText(state.message, t) : ''}
      </p>
      <div className="actions">
        <button type="button" className="btn" onClick={menu.close}>
          {t('memberCollections.done')}
        </button>
      </div>
    </ModalDialog>
  );
}

/**
 * "Save to collection" on a project page (signed-in members only; cards share `CardSaveMenus`): a dialog listing
 * the member's collections with a box ticked on those holding the project, and "New collection…".
 * Hydrated with `client:interaction`: pages load none of its code until it is used.
 */
export default function SaveToCollection({ locale, messages, ...props }: SaveToCollectionProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Menu {...props} />
    </I18nProvider>
  );
}
