import { DONATION_CURRENCIES, DONATION_CURRENCY_CODES, defaultDonationCurrency, parseMajorAmount, type DonationCurrency } from '../../lib/donation-rules.ts';
import type { ErrorKey } from '../http/errors.ts';
import { isAppError } from '../http/errors.ts';
import { pageTags } from '../page-cache/tags.ts';
import { donationMode, findDonationProject, startDonation, type DonationMode } from '../services/site/index.ts';
import { siteOrigin } from '../lib/sso-links.ts';
import { ok, redirect, type LoaderData, type PageContext, type PageLoader } from './page.ts';

export interface SupportFormState {
  mode: DonationMode;
  currency: DonationCurrency;
  /** The amounts offered in `currency`, minor units. */
  presets: readonly number[];
  /** The project the donation goes towards (`?project=`), or the site. */
  project: { id: string; title: string } | null;
  values: { amount: string; custom: string; anonymous: boolean; name: string; message: string };
  /** Field → `validation.` key. */
  fields: Record<string, string>;
  /** The `errors.` key of the whole form. */
  errorKey: ErrorKey | null;
  /** Back from Stripe without paying. */
  cancelled: boolean;
}

function currencyOf(value: string | null | undefined, context: PageContext): DonationCurrency {
  const wanted = (value ?? '').toUpperCase();
  return (DONATION_CURRENCY_CODES as string[]).includes(wanted) ? (wanted as DonationCurrency) : defaultDonationCurrency(context.locals.locale);
}

/**
 * `/support`: why and how to support the site, with the donation form (Stripe), the link to the
 * external donation page (`DONATION_URL`), or the word that donations are not open. A posted
 * form is checked like `donate/checkout` (the same schema and errors) and goes on to Stripe's
 * payment page; a mistake shows the form again with it. Works without JavaScript.
 */
export const loadSupportPage = (async (context) => {
  const { url, request, locals } = context;
  const projectParam = (url.searchParams.get('project') ?? '').slice(0, 64);
  const project = projectParam ? await findDonationProject(projectParam).catch(() => null) : null;
  const currency = currencyOf(url.searchParams.get('currency'), context);
  const state: SupportFormState = {
    mode: donationMode(),
    currency,
    presets: DONATION_CURRENCIES[currency].presets,
    project: project ? { id: projectParam, title: project.title } : null,
    values: { amount: String(DONATION_CURRENCIES[currency].presets[1]), custom: '', anonymous: false, name: locals.user?.nickname ?? '', message: '' },
    fields: {},
    errorKey: null,
    cancelled: url.searchParams.get('cancelled') === '1',
  };
  const tags = project ? [pageTags.project(projectParam)] : [];
  if (request.method !== 'POST') return ok(state, { tags });

  let raw: Record<string, string> = {};
  try {
    const form = await request.formData();
    raw = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    state.errorKey = 'bad_request';
    return ok(state, { status: 400 });
  }
  state.currency = currencyOf(raw.currency, context);
  state.presets = DONATION_CURRENCIES[state.currency].presets;
  state.values = {
    amount: (raw.amount ?? '').slice(0, 20),
    custom: (raw.custom ?? '').slice(0, 20),
    anonymous: raw.anonymous === 'on',
    name: (raw.name ?? '').slice(0, 320),
    message: (raw.message ?? '').slice(0, 2000),
  };
  // "Another amount" is typed in major units (12.50); the form sends minor units like the API.
  const amount = state.values.amount === 'other' ? parseMajorAmount(state.values.custom, state.currency) : Number(state.values.amount);
  if (amount === null) {
    state.fields = { custom: 'amount_invalid' };
    return ok(state, { status: 400 });
  }
  try {
    const { url: next } = await startDonation(
      { ...state.values, amount, currency: state.currency, project: raw.project ?? '' },
      locals.user,
      siteOrigin(url),
    );
    return redirect(next, 303);
  } catch (error) {
    if (!isAppError(error)) throw error;
    state.fields = error.fields ?? {};
    if (state.fields.amount && state.values.amount === 'other') state.fields = { ...state.fields, custom: state.fields.amount };
    state.errorKey = error.errorKey === 'validation' ? null : error.errorKey;
    return ok(state, { status: error.status });
  }
}) satisfies PageLoader<SupportFormState>;

export type SupportPageData = LoaderData<typeof loadSupportPage>;

/** `/support/thanks`: back from Stripe's payment page. The donation appears once Stripe confirms it. */
export const loadSupportThanksPage = (async () => ok({ mode: donationMode() })) satisfies PageLoader<{ mode: DonationMode }>;
