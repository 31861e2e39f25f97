import { useStore } from '@nanostores/react';
import { formatDate } from '../../lib/format.ts';
import { $now } from '../../stores/clock.ts';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** `5 minutes ago` / `5分钟前` for a past moment, `now` below a minute. */
export function relativeTime(iso: string, now: number, locale: string): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  let format = relativeFormats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale, format);
  }
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/**
 * A `<time>`: the server renders the date (deterministic, so hydration matches); in the browser
 * it turns into relative time, kept current by the page's one clock (`$now`). The exact local
 * time is the tooltip.
 */
export function TimeAgo({ iso, locale }: { iso: string; locale: string }) {
  // Hydration sees the clock's initial null, as the server did; the current time follows.
  const now = useStore($now, { ssr: 'initial' });
  const title = now === null ? undefined : new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(iso));
  return (
    <time dateTime={iso} title={title}>
      {now === null ? formatDate(iso, locale === 'zh-CN' ? 'zh-CN' : 'en-US') : relativeTime(iso, now, locale)}
    </time>
  );
}
