import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { I18nProvider } from './i18n.tsx';

export interface UnstarButtonProps {
  projectId: string;
  title: string;
  locale: string;
}

function Unstar({ projectId, title }: Omit<UnstarButtonProps, 'locale'>) {
  const { t } = useTranslation();
  const [starred, setStarred] = useState(true);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

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
      const reason = error instanceof ApiError ? t(`errors.${error.errorKey}`, { defaultValue: t('errors.internal') }) : t('errors.internal');
      setMessage({ text: reason, error: true });
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
export default function UnstarButton({ locale, ...props }: UnstarButtonProps) {
  return (
    <I18nProvider locale={locale}>
      <Unstar {...props} />
    </I18nProvider>
  );
}
