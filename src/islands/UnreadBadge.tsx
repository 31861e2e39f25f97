import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { initAuth } from '../stores/auth.ts';
import { $messages, initMessages, watchUnread } from '../stores/messages.ts';
import { I18nProvider } from './i18n.tsx';

export interface UnreadBadgeProps {
  locale: string;
  /** The count the server rendered (no flash before hydration). */
  unread: number;
  /** The session token, for `Authorization: Bearer` on refreshes. */
  token: string | null;
  /** `link`: a "Messages" link with the badge (desktop header); `count`: the badge alone (mobile tab). */
  variant?: 'link' | 'count';
  /** Where the link goes (the user's messages page). */
  href?: string;
}

function Badge({ unread, token, variant = 'link', href }: Omit<UnreadBadgeProps, 'locale'>) {
  const { t } = useTranslation();
  if (!import.meta.env.SSR) {
    initAuth({ token });
    initMessages(unread);
  }
  const state = useStore($messages);
  const count = import.meta.env.SSR ? unread : state.unread;
  useEffect(() => watchUnread(), []);
  const badge =
    count > 0 ? (
      <span className="unread-badge" role="img" aria-label={t('messages.badge', { count })} data-testid="unread-badge">
        {count > 99 ? '99+' : count}
      </span>
    ) : null;
  if (variant === 'count') return badge;
  return (
    <a className="header-messages" href={href} title={t('nav.messages')}>
      <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M4 5h16v11H8l-4 4z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      </svg>
      <span className="visually-hidden">{t('nav.messages')}</span>
      {badge}
    </a>
  );
}

/** The unread message count: a header link with a badge, or the badge of the mobile Messages tab. */
export default function UnreadBadge({ locale, ...props }: UnreadBadgeProps) {
  return (
    <I18nProvider locale={locale}>
      <Badge {...props} />
    </I18nProvider>
  );
}
