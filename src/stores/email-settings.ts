import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { AccountEmailInfo } from '../lib/contract/schemas/sso.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface EmailSettingsState {
  account: AccountEmailInfo;
  /** The change-of-address form. */
  newEmail: string;
  password: string;
  /** Field → validation key. */
  errors: Partial<Record<'email' | 'password', string>>;
  changeNotice: Notice | null;
  changing: boolean;
}

/** The change-of-address form's problems, by the rules the server applies; empty when it can be sent. */
export function validateEmailChange(state: Pick<EmailSettingsState, 'newEmail' | 'password' | 'account'>): EmailSettingsState['errors'] {
  const errors: EmailSettingsState['errors'] = {};
  const email = state.newEmail.trim().toLowerCase();
  if (!email) errors.email = 'required';
  else if (!EMAIL.test(email) || email.length > 254) errors.email = 'email';
  else if (email === state.account.email) errors.email = 'email_unchanged';
  if (!state.password) errors.password = 'required';
  return errors;
}

/**
 * The owner's email section of the profile: change the sign-in address (a link goes to the new
 * one; nothing changes until it is opened). Which notifications come by email is the notification
 * settings' (`notification-settings.ts`); asking for the confirmation link again is the banner's
 * (`verify-banner.ts`).
 */
export function createEmailSettings(account: AccountEmailInfo) {
  const $emailSettings = map<EmailSettingsState>({
    account,
    newEmail: '',
    password: '',
    errors: {},
    changeNotice: null,
    changing: false,
  });

  function setField(name: 'newEmail' | 'password', value: string): void {
    const state = $emailSettings.get();
    const field = name === 'newEmail' ? 'email' : 'password';
    $emailSettings.set({ ...state, [name]: value, errors: state.errors[field] ? { ...state.errors, [field]: undefined } : state.errors });
  }

  /** Sends the change of address; answers the first field to fix, if any. */
  async function requestChange(): Promise<string | null> {
    const state = $emailSettings.get();
    if (state.changing) return null;
    const errors = validateEmailChange(state);
    const first = Object.keys(errors)[0];
    if (first) {
      $emailSettings.set({ ...state, errors, changeNotice: null });
      return first;
    }
    $emailSettings.set({ ...state, errors: {}, changeNotice: null, changing: true });
    try {
      const result = await apiCall<{ sent: true; email: string }>('user/changeEmail', { email: state.newEmail.trim().toLowerCase(), password: state.password });
      $emailSettings.set({ ...$emailSettings.get(), changing: false, newEmail: '', password: '', changeNotice: say('profile.email.changeSent', { email: result.email }) });
      return null;
    } catch (error) {
      const fields = (error instanceof ApiError ? error.fields : undefined) ?? {};
      $emailSettings.set({ ...$emailSettings.get(), changing: false, errors: fields, changeNotice: fail(error) });
      return Object.keys(fields)[0] ?? null;
    }
  }

  return { $emailSettings, setField, requestChange };
}

export type EmailSettingsStore = ReturnType<typeof createEmailSettings>;
