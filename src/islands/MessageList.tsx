import { useStore } from '@nanostores/react';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessagePage } from '../lib/conversation-types.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { noticeText } from '../lib/notice.ts';
import type { Variant } from '../lib/paths.ts';
import { initAuth } from '../stores/auth.ts';
import { createMessageList, pageHref } from '../stores/message-list.ts';
import { initMessages } from '../stores/messages.ts';
import { I18nProvider } from './i18n.tsx';
import { MessageRow } from './messages/MessageRow.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface MessageListProps {
  locale: string;
  messages: IslandMessages;
  variant: Variant;
  /** The page the server rendered. */
  initial: MessagePage;
  unreadOnly: boolean;
}

function MessageListBody({ variant, locale, initial, unreadOnly: initialUnreadOnly }: Omit<MessageListProps, 'messages'>) {
  const { t } = useTranslation();
  if (!import.meta.env.SSR) {
    // Only the signed-in owner sees their messages: their cookie authenticates the calls.
    initAuth({ signedIn: true });
    initMessages(initial.unread);
  }
  const list = useIslandStore(() => createMessageList(initial, initialUnreadOnly));
  const { page: data, unreadOnly, busy, error, status } = useStore(list.$list);
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));

  const go = (event: MouseEvent<HTMLAnchorElement>, page: number, onlyUnread: boolean) => {
    event.preventDefault();
    void list.show(page, onlyUnread);
  };

  return (
    <div className="messages">
      <div className="messages-toolbar">
        <nav className="messages-filter" aria-label={t('messages.filter')}>
          <a className="chip" href={pageHref(1, false)} aria-current={!unreadOnly ? 'true' : undefined} onClick={(event) => go(event, 1, false)}>
            {t('messages.filterAll')}
          </a>
          <a className="chip" href={pageHref(1, true)} aria-current={unreadOnly ? 'true' : undefined} onClick={(event) => go(event, 1, true)}>
            {t('messages.filterUnread')}
          </a>
        </nav>
        <p className="messages-summary" data-testid="unread-summary">
          {t('messages.unreadCount', { count: data.unread })}
        </p>
        <button type="button" className="btn" onClick={() => void list.markAllRead()} disabled={busy || data.unread === 0}>
          {t('messages.markAllRead')}
        </button>
      </div>

      <p className="visually-hidden" role="status" aria-live="polite">
        {status ? noticeText(status, t) : ''}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {noticeText(error, t)}
        </p>
      )}

      {data.list.length === 0 ? (
        <div className="empty card">
          <p>{unreadOnly ? t('messages.emptyUnread') : t('messages.empty')}</p>
        </div>
      ) : (
        <ol className="message-list" aria-busy={busy}>
          {data.list.map((message) => (
            <MessageRow
              key={message.id}
              message={message}
              variant={variant}
              locale={locale}
              onFollow={(item) => void list.markRead(item, true)}
              onMarkRead={(item) => void list.markRead(item)}
            />
          ))}
        </ol>
      )}

      {pages > 1 && (
        <nav className="pagination" aria-label={t('pagination.label')}>
          {data.page > 1 ? (
            <a className="btn" href={pageHref(data.page - 1, unreadOnly)} rel="prev" onClick={(event) => go(event, data.page - 1, unreadOnly)}>
              {t('pagination.previous')}
            </a>
          ) : (
            <span className="btn" aria-disabled="true">
              {t('pagination.previous')}
            </span>
          )}
          <span className="muted">{t('pagination.page', { page: data.page, pages })}</span>
          {data.page < pages ? (
            <a className="btn" href={pageHref(data.page + 1, unreadOnly)} rel="next" onClick={(event) => go(event, data.page + 1, unreadOnly)}>
              {t('pagination.next')}
            </a>
          ) : (
            <span className="btn" aria-disabled="true">
              {t('pagination.next')}
            </span>
          )}
        </nav>
      )}
    </div>
  );
}

/** The owner's messages: who did what, where; unread first; mark one or all read. */
export default function MessageList({ messages, ...props }: MessageListProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <MessageListBody {...props} />
    </I18nProvider>
  );
}
