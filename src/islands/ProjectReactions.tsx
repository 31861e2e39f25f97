import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createReactions, type ReactionsInit } from '../stores/reactions.ts';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface ProjectReactionsProps extends ReactionsInit {
  locale: string;
  messages: IslandMessages;
}

function Reactions(props: ReactionsInit) {
  const { t } = useTranslation();
  const { $reactions, press } = useIslandStore(() => createReactions(props));
  const state = useStore($reactions);
  const alert = isAlert(state.message);
  return (
    <div className="reactions-box">
      <div className="reactions">
        <button type="button" className="btn" aria-pressed={state.starred} onClick={() => press('star')} disabled={state.pending === 'star'} data-reaction="star">
          <span aria-hidden="true">{state.starred ? '★' : '☆'}</span>
          {state.starred ? t('reactions.starred') : t('reactions.star')}
          <span className="count" aria-label={t('reactions.starCount', { count: state.starCount })}>{state.starCount}</span>
        </button>
        <button type="button" className="btn" aria-pressed={state.liked} onClick={() => press('like')} disabled={state.pending === 'like'} data-reaction="like">
          <span aria-hidden="true">{state.liked ? '♥' : '♡'}</span>
          {state.liked ? t('reactions.liked') : t('reactions.like')}
          <span className="count" aria-label={t('reactions.likeCount', { count: state.likeCount })}>{state.likeCount}</span>
        </button>
      </div>
      <p className={`status-message${alert ? ' error' : ' visually-hidden'}`} role={alert ? 'alert' : 'status'} aria-live="polite">
        {state.message ? noticeText(state.message, t) : ''}
      </p>
    </div>
  );
}

/**
 * Star and like buttons of a project page: optimistic, rolled back on failure; guests sign in first.
 * Hydrated with `client:interaction`, so the buttons are live in the server's HTML: a press that
 * comes before the code is held by the directive and performed once it has arrived.
 */
export default function ProjectReactions({ locale, messages, ...props }: ProjectReactionsProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Reactions {...props} />
    </I18nProvider>
  );
}
