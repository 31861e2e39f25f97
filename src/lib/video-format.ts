/**
 * How a video's length and an upload's pace are written, the same on the server's pages and in
 * the islands.
 */

/** A running time as clocks show it: 65 → `1:05`, 3723 → `1:02:03`; unknown → ``. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

/** A running time as ISO 8601 (`VideoObject.duration`, `<time datetime>`): 65.4 → `PT1M5S`. */
export function isoDuration(seconds: number | null | undefined): string | undefined {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return undefined;
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${secs || total === 0 ? `${secs}S` : ''}`;
}

/** Megabytes per second with one decimal (`2.4`), for "2.4 MB/s". */
export function formatSpeed(bytesPerSecond: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(bytesPerSecond / (1024 * 1024));
}

/** The time an upload still needs, in whole seconds, as `{ minutes, seconds }` for the message. */
export function splitSeconds(seconds: number): { minutes: number; seconds: number } {
  const total = Math.max(0, Math.ceil(seconds));
  return { minutes: Math.floor(total / 60), seconds: total % 60 };
}
