import type { Locale } from './i18n.ts';

/**
 * The currencies a donation can be made in, each with the amounts the Support page offers and the
 * smallest and largest it accepts, all in minor units (cents, fen). The smallest sits above what
 * the card networks charge in fees for a payment; the largest keeps a typing slip from charging
 * someone ten thousand.
 */
export const DONATION_CURRENCIES = {
  USD: { presets: [500, 1000, 2500, 5000], min: 100, max: 1_000_000 },
  EUR: { presets: [500, 1000, 2500, 5000], min: 100, max: 1_000_000 },
  CNY: { presets: [2000, 5000, 10000, 20000], min: 500, max: 5_000_000 },
} as const satisfies Record<string, { presets: readonly number[]; min: number; max: number }>;

export type DonationCurrency = keyof typeof DONATION_CURRENCIES;
export const DONATION_CURRENCY_CODES = Object.keys(DONATION_CURRENCIES) as DonationCurrency[];

/** The currency the Support page starts with for a reader of `locale`. */
export function defaultDonationCurrency(locale: Locale): DonationCurrency {
  return locale === 'zh-CN' ? 'CNY' : 'USD';
}

/** Digits after the decimal point in `currency` (2 for USD and CNY, 0 for JPY), as Intl knows them. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * A decimal amount as written by a person or an export (`12.5`, `12.50`, `1,000.00`) in minor units
 * of `currency`, or null when it is not a plain positive amount with at most the currency's digits.
 */
export function parseMajorAmount(text: string, currency: string): number | null {
  const digits = currencyDigits(currency);
  const cleaned = text.trim().replace(/,/g, '');
  const match = /^(\d{1,9})(?:\.(\d+))?$/.exec(cleaned);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
}

/** The longest message a donor may leave (Stripe keeps metadata values to 500 characters). */
export const DONATION_MESSAGE_MAX = 500;
/** The longest name a donor may give. */
export const DONOR_NAME_MAX = 80;
