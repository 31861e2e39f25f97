import { isAppError, type ErrorKey } from '../http/errors.ts';
import { requestMeta } from '../http/request-meta.ts';
import { parseInput } from '../http/validation.ts';
import { assertSignInHost } from '../lib/sso-links.ts';
import { loginSchema, registerSchema, signIn, signUp, buildReturnLocation, issueSsoCode } from '../services/accounts/index.ts';
import { ok, redirect, type LoaderData, type PageContext, type PageLoader } from './page.ts';

export type SsoMode = 'login' | 'register';

export interface SsoFormState {
  mode: SsoMode;
  /** `redirect`, `siteId` and `platform` as received, carried by the form and the switch link. */
  params: { redirect: string; siteId: string; platform: string };
  /** The query string that keeps them when switching between sign-in and sign-up. */
  query: string;
  values: { email: string; nickname: string };
  /** Field → `validation.` key. */
  fields: Record<string, string>;
  /** The `errors.` key of the whole form. */
  errorKey: ErrorKey | null;
}

function readParams(url: URL): SsoFormState['params'] {
  const get = (name: string) => (url.searchParams.get(name) ?? '').slice(0, name === 'redirect' ? 2000 : 64);
  return { redirect: get('redirect'), siteId: get('siteId'), platform: get('platform') };
}

/**
 * The SSO pages without JavaScript: a signed-in visitor goes straight back with a code; a posted
 * form is handled like the JSON endpoint (same schema, limits and errors) and redirects to the
 * answered `location` on success, else the form is shown again with its errors.
 */
async function loadSsoPage(context: PageContext, mode: SsoMode) {
  const params = readParams(context.url);
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value)).toString();
  const state: SsoFormState = { mode, params, query: query ? `?${query}` : '', values: { email: '', nickname: '' }, fields: {}, errorKey: null };
  const { user } = context.locals;

  // A request naming a host that is not the site's gets the form with the reason, never a code.
  try {
    assertSignInHost(context.url);
  } catch (error) {
    if (!isAppError(error)) throw error;
    state.errorKey = error.errorKey;
    return ok(state, { status: error.status });
  }
  if (context.request.method === 'GET' && user) {
    const code = await issueSsoCode(user.id);
    return redirect(buildReturnLocation(params.redirect || undefined, code, context.url), 303);
  }
  if (context.request.method !== 'POST') return ok(state);
  // Posted from another site's page: nothing is read or signed in (login CSRF), the form says why.
  if (context.locals.crossSiteWrite) {
    state.errorKey = 'cross_site_request';
    return ok(state, { status: 403 });
  }

  let raw: Record<string, string> = {};
  try {
    const form = await context.request.formData();
    raw = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    state.errorKey = 'bad_request';
    return ok(state, { status: 400 });
  }
  state.values = { email: (raw.email ?? '').slice(0, 254), nickname: (raw.nickname ?? '').slice(0, 160) };
  const body = { ...raw, redirect: raw.redirect || params.redirect || undefined, siteId: raw.siteId || params.siteId || undefined, platform: raw.platform || params.platform || undefined };
  try {
    const meta = requestMeta(context);
    const { location } = mode === 'login' ? await signIn(parseInput(loginSchema, body), meta) : await signUp(parseInput(registerSchema, body), meta);
    return redirect(location, 303);
  } catch (error) {
    if (!isAppError(error)) throw error;
    state.fields = error.fields ?? {};
    state.errorKey = error.errorKey === 'validation' ? null : error.errorKey;
    if (error.errorKey === 'validation' && Object.keys(state.fields).length === 0) state.errorKey = 'validation';
    return ok(state, { status: error.status });
  }
}

/** `/sso/login`: the sign-in form, or straight back with a code for a signed-in member. */
export const loadSignInPage = ((context) => loadSsoPage(context, 'login')) satisfies PageLoader<SsoFormState>;

/** `/sso/register`: the sign-up form, or straight back with a code for a signed-in member. */
export const loadRegisterPage = ((context) => loadSsoPage(context, 'register')) satisfies PageLoader<SsoFormState>;

export type SsoPageData = LoaderData<typeof loadSignInPage>;
