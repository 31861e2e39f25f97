import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createStarred } from '../stores/starred.ts';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';

export interface UnstarButtonProps {
  projectId: string;
  title: string;
  locale: string;
  messages: IslandMessages;
}

function Unstar({ projectId, title }: Omit<UnstarButtonProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const star = useIslandStore(() => createStarred(projectId, title));
  const { starred, busy, message } = useStore(star.$starred);
  const hydrated = useHydrated();
  const root = useRef<HTMLDivElement>(null);
  const alert = isAlert(message);
  // The card stays (so the owner can undo) but fades out of the list.
  useEffect(() => {
    root.current?.closest('li')?.classList.toggle('card-dimmed', !starred);
  }, [starred]);

  return (
    <div className="unstar-row" ref={root}>
      <button type="button" className="btn" onClick={() => void star.toggle()} disabled={!hydrated || busy} aria-label={starred ? t('stars.unstarLabel', { title }) : t('stars.starAgainLabel', { title })}>
        <span aria-hidden="true">{starred ? '★' : '☆'}</span> {starred ? t('stars.unstar') : t('stars.starAgain')}
      </button>
      <p className={`status-message${alert ? ' error' : ' visually-hidden'}`} role={alert ? 'alert' : 'status'}>
        {message ? noticeText(message, t) : ''}
      </p>
    </div>
  );
}

/** On the owner's own stars page: remove a star (and undo it). */
export default function UnstarButton({ locale, messages, ...props }: UnstarButtonProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Unstar {...props} />
    </I18nProvider>
  );
}
