import { useEffect, useState } from 'react';
import { formatDate } from '../../lib/format.ts';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** `5 minutes ago` / `5分钟前` for a past moment, `now` below a minute. */
export function relativeTime(iso: string, now: number, locale: string): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}


/**
 * A `<time>`: the server renders the date (deterministic, so hydration matches); in the browser
 * it turns into relative time and keeps itself current. The exact local time is the tooltip.
 */
export function TimeAgo({ iso, locale }: { iso: string; locale: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const title = now === null ? undefined : new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(iso));
  return (
    <time dateTime={iso} title={title}>
      {now === null ? formatDate(iso, locale === 'zh-CN' ? 'zh-CN' : 'en-US') : relativeTime(iso, now, locale)}
    </time>
  );
}
