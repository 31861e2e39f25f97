import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { fail, say, type Notice } from '../lib/notice.ts';

export interface VerifyBannerState {
  busy: boolean;
  /** "Sent", "already confirmed", or why it failed. */
  notice: Notice | null;
}

/** The banner of a member who has not confirmed their address: sends the confirmation link again. */
export function createVerifyBanner() {
  const $verifyBanner = map<VerifyBannerState>({ busy: false, notice: null });

  async function resend(): Promise<void> {
    if ($verifyBanner.get().busy) return;
    $verifyBanner.set({ busy: true, notice: null });
    try {
      const { sent } = await apiCall<{ sent: boolean }>('user/resendVerification', {});
      $verifyBanner.set({ busy: false, notice: say(sent ? 'verifyBanner.sent' : 'verifyBanner.alreadyConfirmed') });
    } catch (error) {
      $verifyBanner.set({ busy: false, notice: fail(error) });
    }
  }

  return { $verifyBanner, resend };
}

export type VerifyBannerStore = ReturnType<typeof createVerifyBanner>;
