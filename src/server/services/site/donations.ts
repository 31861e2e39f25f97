/**
 * Donations that arrive: Stripe Checkout when the site has payment keys, an external donation
 * page (`DONATION_URL`) otherwise, and donations recorded once each, from Stripe's signed webhook
 * or an imported CSV export. Reading them for pages is `site.ts` (`listDonations`).
 */
import Stripe from 'stripe';
import {
  DONATION_CURRENCIES,
  DONATION_CURRENCY_CODES,
  DONATION_MESSAGE_MAX,
  DONOR_NAME_MAX,
  type DonationCurrency,
} from '../../../lib/donation-rules.ts';
import { normalizePlainText } from '../../../lib/text.ts';
import { getConfig, type DonationConfig } from '../../config.ts';
import { getDb } from '../../db/client.ts';
import { donations, projects, type DonationProvider } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { parseInput, z } from '../../http/validation.ts';
import { purgeDonationPages, publishedProjectById } from '../core/index.ts';

/** How this site takes donations: through Stripe Checkout, on another site's page, or not at all. */
export type DonationMode = { kind: 'stripe' } | { kind: 'external'; url: string } | { kind: 'closed' };

export function donationMode(config: DonationConfig = getConfig().donations): DonationMode {
  if (config.stripeSecretKey && config.stripeWebhookSecret) return { kind: 'stripe' };
  if (config.donationUrl) return { kind: 'external', url: config.donationUrl };
  return { kind: 'closed' };
}

/**
 * A donation form as sent by the Support page or an app: an amount in minor units of `currency`,
 * within that currency's bounds (`DONATION_CURRENCIES`), towards the site or a project.
 * Field errors: `amount_invalid`, `amount_too_small`, `amount_too_big`, `too_big` (name, message), `invalid_value`.
 */
export const donationFormSchema = z
  .object({
    amount: z.coerce.number({ error: 'amount_invalid' }).int('amount_invalid').positive('amount_too_small'),
    currency: z.enum(DONATION_CURRENCY_CODES as [DonationCurrency, ...DonationCurrency[]]),
    anonymous: z
      .union([z.boolean(), z.enum(['on', 'true', '1', 'false', '0', ''])])
      .default(false)
      .transform((value) => value === true || value === 'on' || value === 'true' || value === '1'),
    name: z.string().max(DONOR_NAME_MAX * 4).default('').transform(normalizePlainText).pipe(z.string().max(DONOR_NAME_MAX, 'too_big')),
    message: z.string().max(DONATION_MESSAGE_MAX * 4).default('').transform(normalizePlainText).pipe(z.string().max(DONATION_MESSAGE_MAX, 'too_big')),
    /** The public id of the project the donation goes towards; empty for the site. */
    project: z.string().max(64).default(''),
  })
  .superRefine((form, ctx) => {
    const bounds = DONATION_CURRENCIES[form.currency];
    if (form.amount < bounds.min) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount_too_small' });
    if (form.amount > bounds.max) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount_too_big' });
  });

export type DonationForm = z.output<typeof donationFormSchema>;

/** A published project by public id, for a donation towards it (404 `project_not_found` otherwise). */
export async function findDonationProject(publicId: string): Promise<{ id: number; title: string } | null> {
  if (!publicId) return null;
  const [row] = await getDb()
    .select({ id: projects.id, title: projects.title })
    .from(projects)
    .where(publishedProjectById(publicId, 'published'))
    .limit(1);
  if (!row) throw new AppError('project_not_found');
  return row;
}

/** A Stripe client for `config`, pointed at `STRIPE_API_BASE` when set (stripe-mock, a test's server). */
function stripeClient(config: DonationConfig): Stripe {
  const base = config.stripeApiBase;
  return new Stripe(config.stripeSecretKey!, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    ...(base
      ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const) }
      : {}),
  });
}

/**
 * `donate/checkout`: where to send a donor who filled in the form. With Stripe, a Checkout
 * Session is created (the donor's choices travel in its metadata and come back with the webhook)
 * and its payment page is the answer; without, the site's external donation page, where the
 * amount is chosen again. 404 `donations_closed` when the site takes no donations,
 * `project_not_found` for a donation towards a project that is not published.
 */
export async function startDonation(
  input: unknown,
  donor: { id: number; nickname: string } | null,
  origin: string,
  config: DonationConfig = getConfig().donations,
): Promise<{ url: string; mode: 'stripe' | 'external' }> {
  const mode = donationMode(config);
  if (mode.kind === 'closed') throw new AppError('donations_closed');
  const form = parseInput(donationFormSchema, input);
  const project = await findDonationProject(form.project);
  if (mode.kind === 'external') return { url: mode.url, mode: 'external' };

  const name = form.name || donor?.nickname || '';
  const session = await stripeClient(config).checkout.sessions.create({
    mode: 'payment',
    submit_type: 'donate',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: form.currency.toLowerCase(),
          unit_amount: form.amount,
          product_data: { name: project ? `Donation towards ${project.title}`.slice(0, 250) : 'Donation to Copperhub' },
        },
      },
    ],
    success_url: `${origin}/support/thanks?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/support${form.project ? `?project=${encodeURIComponent(form.project)}&` : '?'}cancelled=1`,
    metadata: {
      kind: 'donation',
      donorName: name,
      anonymous: form.anonymous ? '1' : '0',
      message: form.message,
      userId: donor ? String(donor.id) : '',
      projectId: project ? String(project.id) : '',
    },
  });
  if (!session.url) throw new AppError('internal');
  return { url: session.url, mode: 'stripe' };
}

/** Where a donate button goes: an address of this site (the Support page) or another site's page. */
export interface DonateLink {
  href: string;
  external: boolean;
}

/**
 * The donate button of the home page and of a project page (`project`: its public id): the
 * Support page with Stripe, the external donation page without, none when donations are closed
 * (so no page shows a button that leads nowhere).
 */
export function donateLink(project?: string, config: DonationConfig = getConfig().donations): DonateLink | null {
  const mode = donationMode(config);
  if (mode.kind === 'closed') return null;
  if (mode.kind === 'external') return { href: mode.url, external: true };
  return { href: project ? `/support?project=${encodeURIComponent(project)}` : '/support', external: false };
}

/** A donation to record, from any provider. */
export interface ReceivedDonation {
  provider: DonationProvider;
  providerRef: string;
  donorName: string;
  userId: number | null;
  anonymous: boolean;
  amount: number;
  currency: string;
  message: string;
  projectId: number | null;
  createdAt: Date;
}

/**
 * Stores a donation unless one with the same provider id is already stored (a replayed webhook,
 * an export imported twice): true when this call stored it. The home page and the donation list
 * show it at once (their cached copies are purged).
 */
export async function recordDonation(donation: ReceivedDonation): Promise<boolean> {
  return (await recordDonations([donation])) > 0;
}

/** `recordDonation` for many, in one transaction: how many were new. */
export async function recordDonations(list: ReceivedDonation[]): Promise<number> {
  if (list.length === 0) return 0;
  const stored = await getDb().transaction(async (tx) => {
    let count = 0;
    for (let i = 0; i < list.length; i += 500) {
      const rows = await tx
        .insert(donations)
        .values(list.slice(i, i + 500))
        .onConflictDoNothing({ target: [donations.provider, donations.providerRef] })
        .returning({ id: donations.id });
      count += rows.length;
    }
    return count;
  });
  if (stored > 0) await purgeDonationPages();
  return stored;
}

/** The largest webhook body read; Stripe's events are a few kilobytes. */
export const WEBHOOK_MAX_BYTES = 64 * 1024;

/** How far a webhook's signed timestamp may be from now, either way: Stripe's own default. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A whole number from metadata, or null (anything else is ignored rather than trusted). */
function metadataId(value: string | undefined): number | null {
  return value && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

/** What every Stripe event has: its type and the object it is about. */
const signedEventSchema = z.object({ type: z.string(), data: z.object({ object: z.record(z.string(), z.unknown()) }) });

/** The fields of a Checkout Session a donation is made of. */
const checkoutSessionSchema = z.object({
  id: z.string().min(1).max(255),
  created: z.number().int().positive(),
  payment_status: z.string(),
  amount_total: z.number().int().nonnegative().nullable(),
  currency: z.string().nullable(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  customer_details: z.object({ name: z.string().nullable().optional() }).loose().nullable().optional(),
});

/**
 * `POST /api/donate/webhook`: a Stripe event, verified with Stripe's own check of the signature
 * over the raw body (`STRIPE_WEBHOOK_SECRET`, a timestamp within `WEBHOOK_TOLERANCE_SECONDS` of now, either way),
 * else 400 `invalid_signature` and nothing changes. The one source of truth for a payment is
 * `checkout.session.completed` (and `checkout.session.async_payment_succeeded` for bank debits
 * that settle later), stored only once paid: the session carries the form's metadata with the
 * amount actually charged, and `payment_intent.succeeded` for the same payment would count it
 * twice. Other events are acknowledged and ignored. Answers whether a donation was stored.
 */
export async function receiveStripeEvent(
  rawBody: Buffer,
  signature: string | null,
  config: DonationConfig = getConfig().donations,
  now = new Date(),
): Promise<{ stored: boolean }> {
  if (!signature) throw new AppError('invalid_signature');
  if (!config.stripeWebhookSecret) throw new AppError('donations_closed');
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, config.stripeWebhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  } catch {
    // Forged, altered, signed with another secret, or too old (a replay from outside the window).
    throw new AppError('invalid_signature');
  }
  // Stripe's check bounds the age only; a clock skew is tolerated the other way by as much.
  const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1] ?? NaN);
  if (!(signedAt <= now.getTime() / 1000 + WEBHOOK_TOLERANCE_SECONDS)) throw new AppError('invalid_signature');
  // Signed by Stripe but not shaped as its events are (an API version this code does not know, a
  // test sent by hand): 400, and nothing stored, rather than a half-read payment.
  const { type, data } = parseInput(signedEventSchema, event);
  if (type !== 'checkout.session.completed' && type !== 'checkout.session.async_payment_succeeded') return { stored: false };
  const session = parseInput(checkoutSessionSchema, data.object);
  if (session.payment_status !== 'paid' || session.metadata?.kind !== 'donation') return { stored: false };
  if (!session.amount_total || !session.currency) return { stored: false };
  const metadata = session.metadata;
  const received: ReceivedDonation = {
    provider: 'stripe',
    providerRef: session.id,
    donorName: (metadata.donorName || session.customer_details?.name || '').slice(0, DONOR_NAME_MAX),
    userId: metadataId(metadata.userId),
    anonymous: metadata.anonymous === '1',
    amount: session.amount_total,
    currency: session.currency.toUpperCase(),
    message: (metadata.message ?? '').slice(0, DONATION_MESSAGE_MAX),
    projectId: metadataId(metadata.projectId),
    createdAt: new Date(session.created * 1000),
  };
  const stored = await recordDonation(received).catch((error: unknown) => {
    // The member or project was deleted between checkout and payment: keep the payment, unlinked.
    if ((error as { cause?: { code?: string } }).cause?.code !== '23503') throw error;
    return recordDonation({ ...received, userId: null, projectId: null });
  });
  return { stored };
}
