import type { Locale } from './i18n.ts';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar date in the reader's language: `Nov 21, 2026` / `2026年11月21日`. */
export function formatDate(value: string | Date, locale: Locale): string {
  const key = `date:${locale}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
    dateFormats.set(key, format);
  }
  return format.format(typeof value === 'string' ? new Date(value) : value);
}

/** A compact count: 1234 → `1.2K` / `1234`. */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { notation: value >= 10_000 ? 'compact' : 'standard', maximumFractionDigits: 1 }).format(value);
}

/** An amount in minor units as money: 1250 USD → `$12.50`, 8800 CNY → `¥88.00`. */
export function formatMoney(minorUnits: number, currency: string, locale: Locale): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minorUnits / 10 ** digits);
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
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
