import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageItem } from '../../lib/conversation-types.ts';
import { logPath } from '../../lib/logs.ts';
import { projectPath, userPath, variantPath, type Variant } from '../../lib/paths.ts';
import { projectTabPath } from '../../lib/project-tabs.ts';
import { Avatar } from '../shared/Avatar.tsx';
import { TimeAgo } from '../shared/TimeAgo.tsx';

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

/** Where a message leads: the followed activity, the comment it is about (on the project or on one of its build logs), the makes of the project for a make, else the project. */
function messageHref(message: MessageItem, variant: Variant): string | null {
  if (!message.project) return null;
  if (message.path) return variantPath(variant, message.path);
  if (message.kind === 'make') return variantPath(variant, projectTabPath(message.project.id, 'makes'));
  const onLog = message.comment?.log;
  const base = variantPath(variant, onLog ? logPath(message.project.id, onLog) : projectPath(message.project.id));
  return message.comment ? `${base}?comment=${message.comment.id}#comment-${message.comment.id}` : base;
}

interface MessageRowProps {
  message: MessageItem;
  variant: Variant;
  locale: string;
  /** The reader follows one of the message's links away. */
  onFollow: (message: MessageItem) => void;
  onMarkRead: (message: MessageItem) => void;
}

/** One message: who did what, where, when; unread ones can be marked read. */
export function MessageRow({ message, variant, locale, onFollow, onMarkRead }: MessageRowProps) {
  const { t } = useTranslation();
  const href = messageHref(message, variant);
  const actorHref = message.actor ? variantPath(variant, userPath(message.actor.url)) : null;
  const follow = () => onFollow(message);
  const actor = message.actor && actorHref ? <a href={actorHref}>{message.actor.nickname}</a> : <strong>{t('messages.formerMember')}</strong>;
  const project =
    message.project && href ? (
      <a href={variantPath(variant, projectPath(message.project.id))} onClick={follow}>
        {message.project.title}
      </a>
    ) : (
      <span>{t('messages.unavailableProject')}</span>
    );
  return (
    <li id={`message-${message.id}`} className={message.read ? 'card message' : 'card message is-unread'} tabIndex={-1}>
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
            : message.kind === 'report_resolved'
              ? t(`messages.reportResolved.${message.body ?? ''}`, { defaultValue: t('messages.kind.report_resolved') })
              : withNodes(t(`messages.kind.${message.kind}`, { actor: '{{actor}}', project: '{{project}}' }), { actor, project })}
        </p>
        {message.comment && <blockquote className="message-excerpt">{message.comment.excerpt}</blockquote>}
        {message.kind === 'make' && message.body && <blockquote className="message-excerpt">{message.body}</blockquote>}
        <div className="message-meta">
          <span className="muted">
            <TimeAgo iso={message.createdAt} locale={locale} />
          </span>
          {href && (
            <a href={href} onClick={follow}>
              {message.comment
                ? t('messages.viewComment')
                : message.kind === 'make'
                  ? t('messages.viewMakes')
                  : message.path && message.kind !== 'followed_project'
                    ? t('messages.viewActivity')
                    : t('messages.viewProject')}
            </a>
          )}
          {!message.read && (
            <button type="button" className="message-read-btn" onClick={() => onMarkRead(message)}>
              {t('messages.markRead')}
            </button>
          )}
        </div>
      </div>
      {!message.read && <span className="message-dot" aria-hidden="true" />}
    </li>
  );
}
