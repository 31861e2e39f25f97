import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createVerifyBanner } from '../stores/verify-banner.ts';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';

export interface VerifyEmailBannerProps {
  locale: string;
  messages: IslandMessages;
}

/** "Check your inbox": shown to members who have not confirmed their address where they would publish or comment. */
export default function VerifyEmailBanner({ locale, messages }: VerifyEmailBannerProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Banner />
    </I18nProvider>
  );
}

function Banner() {
  const { t } = useTranslation();
  const banner = useIslandStore(createVerifyBanner);
  const { busy, notice } = useStore(banner.$verifyBanner);
  const hydrated = useHydrated();
  const alert = isAlert(notice);
  return (
    <div className="notice-banner" data-testid="verify-email-banner">
      <p>{t('verifyBanner.text')}</p>
      <button type="button" className="btn" onClick={() => void banner.resend()} disabled={!hydrated || busy}>
        {t('verifyBanner.resend')}
      </button>
      <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'}>
        {notice ? noticeText(notice, t) : ''}
      </p>
    </div>
  );
}
