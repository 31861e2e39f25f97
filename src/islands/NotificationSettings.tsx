import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_SETTING_KINDS, type NotificationSettingsInfo } from '../lib/contract/schemas/follows.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { createNotificationSettings } from '../stores/notification-settings.ts';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface NotificationSettingsProps {
  locale: string;
  messages: IslandMessages;
  settings: NotificationSettingsInfo;
  /** Whether the site sends email at all: when not, the email column says so. */
  mailEnabled: boolean;
}

function SettingsTable({ settings, mailEnabled }: Pick<NotificationSettingsProps, 'settings' | 'mailEnabled'>) {
  const { t } = useTranslation();
  const { $notificationSettings, choose } = useIslandStore(() => createNotificationSettings(settings));
  const state = useStore($notificationSettings);
  const alert = isAlert(state.notice);
  return (
    <div className="card" style={{ padding: '1rem' }}>
      <p className="muted" style={{ marginTop: 0 }}>{t('notificationSettings.description')}</p>
      {!mailEnabled && <p className="muted">{t('notificationSettings.mailOff')}</p>}
      <table className="notification-table">
        <thead>
          <tr>
            <th scope="col">{t('notificationSettings.kind')}</th>
            <th scope="col" className="channel">{t('notificationSettings.site')}</th>
            <th scope="col" className="channel">{t('notificationSettings.email')}</th>
          </tr>
        </thead>
        <tbody>
          {NOTIFICATION_SETTING_KINDS.map((kind) => {
            const name = t(`notificationSettings.kinds.${kind}`);
            return (
              <tr key={kind}>
                <th scope="row" style={{ fontWeight: 'normal' }}>{name}</th>
                <td className="channel">
                  <input type="checkbox" checked={state.settings[kind].site} disabled={state.saving === kind} aria-label={t('notificationSettings.siteFor', { kind: name })} onChange={(event) => void choose(kind, 'site', event.target.checked)} />
                </td>
                <td className="channel">
                  <input type="checkbox" checked={state.settings[kind].email} disabled={state.saving === kind} aria-label={t('notificationSettings.emailFor', { kind: name })} onChange={(event) => void choose(kind, 'email', event.target.checked)} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'} aria-live="polite">
        {state.notice ? noticeText(state.notice, t) : ''}
      </p>
    </div>
  );
}

/** The owner's notification settings: per kind, on the site and by email; each box saved as ticked. */
export default function NotificationSettings({ locale, messages, ...props }: NotificationSettingsProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <SettingsTable {...props} />
    </I18nProvider>
  );
}
