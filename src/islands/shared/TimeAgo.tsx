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
 * it turns into relative time and keeps itself current. The exact local time is the tooltip.
 */
// One clock for every <TimeAgo> on the page, ticking once a minute while any is shown.
const listeners = new Set<(now: number) => void>();
let clock: ReturnType<typeof setInterval> | undefined;

function useNow(): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    listeners.add(setNow);
    clock ??= setInterval(() => {
      const current = Date.now();
      for (const listener of listeners) listener(current);
    }, 60_000);
    return () => {
      listeners.delete(setNow);
      if (listeners.size === 0 && clock !== undefined) {
        clearInterval(clock);
        clock = undefined;
      }
    };
  }, []);
  return now;
}

export function TimeAgo({ iso, locale }: { iso: string; locale: string }) {
  const now = useNow();
  const title = now === null ? undefined : new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(iso));
  return (
    <time dateTime={iso} title={title}>
      {now === null ? formatDate(iso, locale === 'zh-CN' ? 'zh-CN' : 'en-US') : relativeTime(iso, now, locale)}
    </time>
  );
}
