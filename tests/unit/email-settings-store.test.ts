import { describe, expect, it } from 'vitest';
import { createEmailSettings, validateEmailChange } from '../../src/stores/email-settings.ts';
import { createVerifyBanner } from '../../src/stores/verify-banner.ts';

const account = { email: 'ada@example.com', emailVerified: true, mailEnabled: true, comments: 'daily', replies: 'daily', stars: 'daily' } as const;

describe('the email settings store', () => {
  it('checks a change of address by the server’s rules', () => {
    expect(validateEmailChange({ account, newEmail: 'new@example.com', password: 'x' })).toEqual({});
    expect(validateEmailChange({ account, newEmail: '', password: '' })).toEqual({ email: 'required', password: 'required' });
    expect(validateEmailChange({ account, newEmail: 'not-an-address', password: 'x' })).toEqual({ email: 'email' });
    expect(validateEmailChange({ account, newEmail: ' ADA@example.com ', password: 'x' })).toEqual({ email: 'email_unchanged' });
  });

  it('does not send an invalid change: names the first field to fix; typing clears its error', async () => {
    const store = createEmailSettings({ ...account });
    store.setField('newEmail', 'ada@example.com');
    expect(await store.requestChange()).toBe('email');
    expect(store.$emailSettings.get()).toMatchObject({ changing: false, errors: { email: 'email_unchanged', password: 'required' } });
    store.setField('newEmail', 'other@example.com');
    expect(store.$emailSettings.get().errors.email).toBeUndefined();
    expect(store.$emailSettings.get().errors.password).toBe('required');
  });
});

describe('the confirm-your-email banner store', () => {
  it('says why the link could not be sent again', async () => {
    const banner = createVerifyBanner();
    await banner.resend();
    expect(banner.$verifyBanner.get()).toMatchObject({ busy: false, notice: { error: { errorKey: 'network' } } });
  });
});
