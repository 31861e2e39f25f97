import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountEmailInfo } from '../lib/contract/schemas/sso.ts';
import { fieldMessage } from '../lib/contract/errors.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createEmailSettings } from '../stores/email-settings.ts';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';

export interface EmailSettingsProps {
  locale: string;
  messages: IslandMessages;
  account: AccountEmailInfo;
  /** The member's notification settings tab, where email is chosen kind by kind. */
  settingsHref: string;
}

/** The owner's email section of the profile: change of address, and where notification emails are chosen. */
export default function EmailSettings({ locale, messages, account, settingsHref }: EmailSettingsProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Settings account={account} settingsHref={settingsHref} />
    </I18nProvider>
  );
}

function Settings({ account: initial, settingsHref }: { account: AccountEmailInfo; settingsHref: string }) {
  const { t } = useTranslation();
  const store = useIslandStore(() => createEmailSettings(initial));
  const state = useStore(store.$emailSettings);
  const hydrated = useHydrated();
  const base = useId();
  const { account, errors } = state;

  if (!account.mailEnabled) return <p className="muted">{t('profile.email.noMail')}</p>;

  return (
    <div className="form-stack">
      <p>
        {t('profile.email.current', { email: account.email })} {!account.emailVerified && <strong>({t('profile.email.unverified')})</strong>}
      </p>
      <form
        noValidate
        aria-label={t('profile.email.change')}
        onSubmit={(event) => {
          event.preventDefault();
          void store.requestChange().then((field) => {
            if (field) document.getElementById(`${base}-${field}`)?.focus();
          });
        }}
      >
        <fieldset className="form-stack" disabled={!hydrated || state.changing} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
          <div className="field">
            <label htmlFor={`${base}-email`}>{t('profile.email.newEmail')}</label>
            <input id={`${base}-email`} name="email" type="email" autoComplete="email" maxLength={254} value={state.newEmail} onChange={(event) => store.setField('newEmail', event.target.value)} aria-invalid={errors.email ? true : undefined} />
            {errors.email && <p className="field-error">{fieldMessage(errors.email, t)}</p>}
          </div>
          <div className="field">
            <label htmlFor={`${base}-password`}>{t('profile.email.password')}</label>
            <input id={`${base}-password`} name="password" type="password" autoComplete="current-password" maxLength={128} value={state.password} onChange={(event) => store.setField('password', event.target.value)} aria-invalid={errors.password ? true : undefined} />
            {errors.password && <p className="field-error">{fieldMessage(errors.password, t)}</p>}
          </div>
          <div>
            <button type="submit" className="btn">{t('profile.email.change')}</button>
          </div>
          <p className={`status-message${isAlert(state.changeNotice) ? ' error' : ''}`} role={isAlert(state.changeNotice) ? 'alert' : 'status'}>
            {state.changeNotice ? noticeText(state.changeNotice, t) : ''}
          </p>
        </fieldset>
      </form>
      <h3>{t('profile.email.digestTitle')}</h3>
      <p className="muted">
        {t('profile.email.digestIntro')} <a href={settingsHref}>{t('profile.email.settingsLink')}</a>
      </p>
    </div>
  );
}
