import { useTranslation } from 'react-i18next';
import { initAuth } from '../stores/auth.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { I18nProvider } from './i18n.tsx';
import { useUnread } from './use-unread.ts';

export interface UnreadBadgeProps {
  locale: string;
  messages: IslandMessages;
  /** The count the server rendered (no flash before hydration). */
  unread: number;
}

function Badge({ unread }: Omit<UnreadBadgeProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  // Rendered for signed-in members only: their browser's cookie authenticates the refreshes.
  if (!import.meta.env.SSR) initAuth({ signedIn: true });
  const count = useUnread(unread);
  if (count <= 0) return null;
  return (
    <span className="unread-badge" role="img" aria-label={t('messages.unreadCount', { count })} data-testid="unread-badge">
      {count > 99 ? '99+' : count}
    </span>
  );
}

/**
 * The unread message count on the mobile Messages tab (the desktop header menu shows the same
 * `$messages` count).
 */
export default function UnreadBadge({ locale, messages, ...props }: UnreadBadgeProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Badge {...props} />
    </I18nProvider>
  );
}
