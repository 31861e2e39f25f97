import type { Locale } from './i18n.ts';

// Intl formatters are expensive to build (a new NumberFormat per call was a third of a page's
// CPU time) and safe to share, so each distinct set of options is built once.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n:${locale}:${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

function dateFormat(locale: string): Intl.DateTimeFormat {
  const key = `d:${locale}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
    formatters.set(key, format);
  }
  return format;
}

/** A calendar date in the reader's language: `Nov 21, 2026` / `2026年11月21日`. */
export function formatDate(value: string | Date, locale: Locale): string {
  return dateFormat(locale).format(typeof value === 'string' ? new Date(value) : value);
}

/** A number as the reader's language writes it, in full: 1234 → `1,234` (`Intl.NumberFormat`'s defaults). */
export function formatNumber(value: number, locale: string): string {
  return numberFormat(locale, {}).format(value);
}

/** A compact count: 1234 → `1,234`, 12345 → `12.3K` / `1.2万`. */
export function formatCount(value: number, locale: Locale): string {
  return numberFormat(locale, { notation: value >= 10_000 ? 'compact' : 'standard', maximumFractionDigits: 1 }).format(value);
}

/** An estimated total to two significant digits, as "about N" says it: 38440 → 38000, 1001 → 1000. */
export function roundEstimate(total: number): number {
  if (total <= 0) return 0;
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(total)) - 1);
  return Math.round(total / unit) * unit;
}

/** An amount in minor units as money: 1250 USD → `$12.50`, 8800 CNY → `¥88.00`. */
export function formatMoney(minorUnits: number, currency: string, locale: Locale): string {
  const digits = numberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return numberFormat(locale, { style: 'currency', currency }).format(minorUnits / 10 ** digits);
}

/** A byte size: 2048 → `2 KB`. */
export function formatBytes(bytes: number, locale: Locale): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${numberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
