import { Fragment, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { MessageItem, MessagePage } from '../lib/conversation-types.ts';
import { projectPath, userPath, variantPath, type Variant } from '../lib/paths.ts';
import { initAuth } from '../stores/auth.ts';
import { initMessages, setUnread } from '../stores/messages.ts';
import { I18nProvider } from './i18n.tsx';
import { Avatar } from './shared/Avatar.tsx';
import { TimeAgo } from './shared/TimeAgo.tsx';

export interface MessageListProps {
  locale: string;
  variant: Variant;
  /** The page the server rendered. */
  initial: MessagePage;
  unreadOnly: boolean;
  token: string | null;
}

/**
 * Replaces `{{name}}` placeholders of a translated sentence with React nodes, so names written by
 * users are always text and never parsed as markup.
 */
function withNodes(template: string, nodes: Record<string, ReactNode>): ReactNode[] {
  return template.split(/(\{\{\w+\}\})/).map((part, index) => {
    const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
    return <Fragment key={index}>{name && name in nodes ? nodes[name] : part}</Fragment>;
  });
}

/** Where a message leads: the comment it is about, else the project. */
function messageHref(message: MessageItem, variant: Variant): string | null {
  if (!message.project) return null;
  const base = variantPath(variant, projectPath(message.project.id));
  return message.comment ? `${base}?comment=${message.comment.id}#comment-${message.comment.id}` : base;
}

function pageHref(page: number, unreadOnly: boolean): string {
  const params = new URLSearchParams();
  if (unreadOnly) params.set('filter', 'unread');
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '?';
}

function MessageListBody({ variant, locale, initial, token, ...props }: Omit<MessageListProps, 'locale'> & { locale: string }) {
  const { t } = useTranslation();
  if (!import.meta.env.SSR) {
    initAuth({ token });
    initMessages(initial.unread);
  }
  const [data, setData] = useState<MessagePage>(initial);
  const [unreadOnly, setUnreadOnly] = useState(props.unreadOnly);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => setUnread(initial.unread), [initial.unread]);

  const fail = (cause: unknown) =>
    setError(cause instanceof ApiError ? t(`errors.${cause.errorKey}`, { defaultValue: cause.message }) : t('errors.internal'));

  const load = async (page: number, onlyUnread: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const result = await apiCall<MessagePage>('message/list', { page, pageSize: data.pageSize, unreadOnly: onlyUnread });
      setData(result);
      setUnreadOnly(onlyUnread);
      setUnread(result.unread);
      window.history.replaceState(null, '', pageHref(page, onlyUnread));
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(false);
    }
  };

  const markRead = async (message: MessageItem, leaving = false) => {
    if (message.read) return;
    if (leaving) {
      // The page is about to change: keepalive lets the request finish.
      void apiCall('message/read', { id: message.id }, { keepalive: true }).catch(() => undefined);
      return;
    }
    try {
      const result = await apiCall<{ id: number; unread?: number }>('message/read', { id: message.id });
      const unread = result.unread ?? Math.max(0, data.unread - 1);
      setUnread(unread);
      setData((current) => ({ ...current, unread, list: current.list.map((item) => (item.id === message.id ? { ...item, read: true } : item)) }));
      // the button goes away: keep keyboard focus on the message
      requestAnimationFrame(() => document.getElementById(`message-${message.id}`)?.focus());
    } catch (cause) {
      fail(cause);
    }
  };

  const markAllRead = async () => {
    setBusy(true);
    setError(null);
    try {
      await apiCall<{ updated: number }>('message/allRead');
      setData((current) => ({ ...current, unread: 0, list: current.list.map((item) => ({ ...item, read: true })) }));
      setUnread(0);
      setStatus(t('messages.allRead'));
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(false);
    }
  };

  const follow = (message: MessageItem) => () => void markRead(message, true);

  const go = (event: MouseEvent<HTMLAnchorElement>, page: number, onlyUnread: boolean) => {
    event.preventDefault();
    if (!busy) void load(page, onlyUnread);
  };

  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));

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
        <button type="button" className="btn" onClick={() => void markAllRead()} disabled={busy || data.unread === 0}>
          {t('messages.markAllRead')}
        </button>
      </div>

      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}

      {data.list.length === 0 ? (
        <div className="empty card">
          <p>{unreadOnly ? t('messages.emptyUnread') : t('messages.empty')}</p>
        </div>
      ) : (
        <ol className="message-list" aria-busy={busy}>
          {data.list.map((message) => {
            const href = messageHref(message, variant);
            const actorHref = message.actor ? variantPath(variant, userPath(message.actor.url)) : null;
            const actor = message.actor && actorHref ? <a href={actorHref}>{message.actor.nickname}</a> : <strong>{t('messages.formerMember')}</strong>;
            const project =
              message.project && href ? (
                <a href={variantPath(variant, projectPath(message.project.id))} onClick={follow(message)}>
                  {message.project.title}
                </a>
              ) : (
                <span>{t('messages.unavailableProject')}</span>
              );
            return (
              <li key={message.id} id={`message-${message.id}`} className={message.read ? 'card message' : 'card message is-unread'} tabIndex={-1}>
                {message.actor && actorHref ? (
                  <a className="message-avatar" href={actorHref} tabIndex={-1} aria-hidden="true">
                    <Avatar src={message.actor.avatar} name={message.actor.nickname} size={40} />
                  </a>
                ) : (
                  <span className="message-avatar" aria-hidden="true">
                    <Avatar src={null} name="C" size={40} />
                  </span>
                )}
                <div className="message-main">
                  <p className="message-what">
                    {!message.read && <span className="visually-hidden">{t('messages.unreadLabel')}: </span>}
                    {message.kind === 'system'
                      ? message.body || t('messages.kind.system')
                      : withNodes(t(`messages.kind.${message.kind}`, { actor: '{{actor}}', project: '{{project}}' }), { actor, project })}
                  </p>
                  {message.comment && <blockquote className="message-excerpt">{message.comment.excerpt}</blockquote>}
                  <div className="message-meta">
                    <span className="muted">
                      <TimeAgo iso={message.createdAt} locale={locale} />
                    </span>
                    {href && (
                      <a href={href} onClick={follow(message)}>
                        {message.comment ? t('messages.viewComment') : t('messages.viewProject')}
                      </a>
                    )}
                    {!message.read && (
                      <button type="button" className="message-read-btn" onClick={() => void markRead(message)}>
                        {t('messages.markRead')}
                      </button>
                    )}
                  </div>
                </div>
                {!message.read && <span className="message-dot" aria-hidden="true" />}
              </li>
            );
          })}
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
export default function MessageList(props: MessageListProps) {
  return (
    <I18nProvider locale={props.locale}>
      <MessageListBody {...props} />
    </I18nProvider>
  );
}
