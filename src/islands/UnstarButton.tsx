import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../lib/api-client.ts';
import { errorMessage } from '../lib/contract/errors.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';

export interface UnstarButtonProps {
  projectId: string;
  title: string;
  locale: string;
  messages: IslandMessages;
}

function Unstar({ projectId, title }: Omit<UnstarButtonProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const [starred, setStarred] = useState(true);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();

  async function toggle() {
    setBusy(true);
    setMessage(null);
    try {
      if (starred) await apiCall('user/delStarProject', { id: projectId });
      else await apiCall('project/star', { id: projectId, value: true });
      const next = !starred;
      setStarred(next);
      // The card stays (so the owner can undo) but fades out of the list.
      root.current?.closest('li')?.classList.toggle('card-dimmed', !next);
      setMessage({ text: next ? t('stars.restored', { title }) : t('stars.removed', { title }), error: false });
    } catch (error) {
      setMessage({ text: errorMessage(error, t), error: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="unstar-row" ref={root}>
      <button type="button" className="btn" onClick={() => void toggle()} disabled={!hydrated || busy} aria-label={starred ? t('stars.unstarLabel', { title }) : t('stars.starAgainLabel', { title })}>
        <span aria-hidden="true">{starred ? '★' : '☆'}</span> {starred ? t('stars.unstar') : t('stars.starAgain')}
      </button>
      <p className={`status-message${message?.error ? ' error' : ' visually-hidden'}`} role={message?.error ? 'alert' : 'status'}>
        {message?.text ?? ''}
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
