import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { NotificationSettingKind, NotificationSettingsInfo } from '../lib/contract/schemas/follows.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

export type NotificationChannel = 'site' | 'email';

export interface NotificationSettingsState {
  settings: NotificationSettingsInfo;
  /** The kind being saved, while a save is under way. */
  saving: NotificationSettingKind | null;
  notice: Notice | null;
}

/** The settings once `kind` on `channel` is set to `value`. */
export function withChoice(settings: NotificationSettingsInfo, kind: NotificationSettingKind, channel: NotificationChannel, value: boolean): NotificationSettingsInfo {
  return { ...settings, [kind]: { ...settings[kind], [channel]: value } };
}

/**
 * The member's notification settings page: each box is saved as it is ticked (shown at once, put
 * back with the reason when the save fails).
 */
export function createNotificationSettings(settings: NotificationSettingsInfo) {
  const $notificationSettings = map<NotificationSettingsState>({ settings, saving: null, notice: null });

  async function choose(kind: NotificationSettingKind, channel: NotificationChannel, value: boolean): Promise<void> {
    const state = $notificationSettings.get();
    const previous = state.settings[kind];
    const next = withChoice(state.settings, kind, channel, value);
    $notificationSettings.set({ settings: next, saving: kind, notice: null });
    try {
      const saved = await apiCall<NotificationSettingsInfo>('user/notificationSettings', { [kind]: next[kind] });
      $notificationSettings.set({ settings: saved, saving: null, notice: say('notificationSettings.saved') });
    } catch (error) {
      const current = $notificationSettings.get();
      $notificationSettings.set({ settings: { ...current.settings, [kind]: previous }, saving: null, notice: fail(error, 'notificationSettings.failed') });
    }
  }

  return { $notificationSettings, choose };
}
