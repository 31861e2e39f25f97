import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createFollow, type FollowInit } from '../stores/follow.ts';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface FollowButtonProps extends FollowInit {
  locale: string;
  messages: IslandMessages;
  /** What the button follows, for screen readers ("Follow Ada"). */
  label: string;
}

function Follow({ label, locale, ...init }: FollowInit & { label: string; locale: string }) {
  const { t } = useTranslation();
  const { $follow, press } = useIslandStore(() => createFollow(init));
  const state = useStore($follow);
  const alert = isAlert(state.message);
  const formatted = formatNumber(state.followers, locale);
  return (
    <div className="follow-box">
      <button type="button" className={state.following ? 'btn' : 'btn btn-primary'} aria-pressed={state.following} aria-label={label} onClick={() => void press()} disabled={state.pending} data-follow={init.kind}>
        {state.following ? t('follow.following') : t('follow.follow')}
      </button>
      <span className="follow-count muted" data-testid="follower-count">
        {t('follow.followers', { count: state.followers, formatted })}
      </span>
      <p className={`status-message${alert ? ' error' : ' visually-hidden'}`} role={alert ? 'alert' : 'status'} aria-live="polite">
        {state.message ? noticeText(state.message, t) : ''}
      </p>
    </div>
  );
}

/**
 * A signed-in member's Follow button with the follower count, for a member, a project or a tag.
 * Hydrated with `client:interaction`: live in the server's HTML, its code fetched on first use.
 * Guests get `FollowControl`'s sign-in link instead, and no code at all.
 */
export default function FollowButton({ messages, ...props }: FollowButtonProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Follow {...props} />
    </I18nProvider>
  );
}
