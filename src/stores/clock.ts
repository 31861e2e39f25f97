import { atom, onMount } from 'nanostores';

/** How often relative times ("5 minutes ago") move on. */
export const CLOCK_TICK_MS = 60_000;

/**
 * The current time for relative dates, shared by every `<TimeAgo>` of the page: null until the
 * first one shows in the browser (the server renders plain dates), then ticking once a minute
 * while any is shown and stopped when the last one goes.
 */
export const $now = atom<number | null>(null);

// The server renders dates, never relative times: it gets no clock (nor its timers).
if (typeof window !== 'undefined') {
  onMount($now, () => {
    $now.set(Date.now());
    const timer = setInterval(() => $now.set(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  });
}
