import { isAppError, type ErrorKey } from '../http/errors.ts';
import { requestMeta } from '../http/request-meta.ts';
import { parseInput } from '../http/validation.ts';
import { confirmEmailToken, forgotSchema, requestPasswordReset, resetPassword, resetSchema, verifySchema } from '../services/accounts/index.ts';
import { ok, redirect, type PageContext, type PageLoader } from './page.ts';

export type AccountEmailMode = 'forgot' | 'reset' | 'verify';

/** What the "forgot password", "new password" and "confirm email" pages show. */
export interface AccountEmailPageState {
  mode: AccountEmailMode;
  /** The emailed link's token, carried by the new-password form. */
  token: string;
  email: string;
  /** Field → `validation.` key. */
  fields: Record<string, string>;
  errorKey: ErrorKey | null;
  /** The outcome shown instead of a form: the reset mail is on its way, the address is confirmed, the account moved. */
  done: 'forgot_sent' | 'verified' | 'email_changed' | null;
}

async function readForm(context: PageContext): Promise<Record<string, string> | null> {
  try {
    const form = await context.request.formData();
    return Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return null;
  }
}

/**
 * The pages without JavaScript: a posted form is handled like its JSON endpoint (same schema,
 * limits, errors), then the outcome or the form with its errors is shown.
 */
async function loadAccountEmailPage(context: PageContext, mode: AccountEmailMode) {
  const token = (context.url.searchParams.get('token') ?? '').slice(0, 200);
  const state: AccountEmailPageState = { mode, token, email: '', fields: {}, errorKey: null, done: null };
  const fail = (error: unknown) => {
    if (!isAppError(error)) throw error;
    state.fields = error.fields ?? {};
    state.errorKey = error.errorKey === 'validation' && Object.keys(state.fields).length ? null : error.errorKey;
    return ok(state, { status: error.status });
  };

  if (!token && mode !== 'forgot') {
    state.errorKey = 'token_invalid';
    return ok(state, { status: 400 });
  }
  // Opening the link is the confirmation: reaching the inbox is what it proves, and it signs nobody in.
  if (mode === 'verify') {
    try {
      const confirmed = await confirmEmailToken(parseInput(verifySchema, { token }), requestMeta(context));
      state.email = confirmed.email;
      state.done = confirmed.purpose === 'verify' ? 'verified' : 'email_changed';
      return ok(state);
    } catch (error) {
      return fail(error);
    }
  }
  if (context.request.method !== 'POST') return ok(state);
  if (context.locals.crossSiteWrite) {
    state.errorKey = 'cross_site_request';
    return ok(state, { status: 403 });
  }
  const raw = await readForm(context);
  if (!raw) {
    state.errorKey = 'bad_request';
    return ok(state, { status: 400 });
  }
  try {
    if (mode === 'forgot') {
      state.email = (raw.email ?? '').slice(0, 254);
      await requestPasswordReset(parseInput(forgotSchema, raw), requestMeta(context));
      state.done = 'forgot_sent';
      return ok(state);
    }
    const { location } = await resetPassword(parseInput(resetSchema, { token: raw.token || token, password: raw.password ?? '' }), requestMeta(context));
    return redirect(location, 303);
  } catch (error) {
    return fail(error);
  }
}

/** `/sso/forgot`: asks for the email to mail a reset link to. */
export const loadForgotPage = ((context) => loadAccountEmailPage(context, 'forgot')) satisfies PageLoader<AccountEmailPageState>;

/** `/sso/reset?token=`: the new password form of a reset link. */
export const loadResetPage = ((context) => loadAccountEmailPage(context, 'reset')) satisfies PageLoader<AccountEmailPageState>;

/** `/sso/verify?token=`: confirms an address (sign-up, or a change of address) and says so. */
export const loadVerifyPage = ((context) => loadAccountEmailPage(context, 'verify')) satisfies PageLoader<AccountEmailPageState>;
