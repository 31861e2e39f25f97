/**
 * Fetches the pages behind links marked `data-prefetch` before they are followed: when a pointer
 * rests on one for 80 ms or focus reaches it, when it is pressed, and, on a device that cannot
 * hover (a phone), when it has been in view for 300 ms. Our own instead of Astro's prefetch, which
 * fetches with `<link rel=prefetch>` and does not know when a fetch ends, so it cannot keep to the
 * limit of five at once. Loaded on guests' pages only (see `Prefetch.astro`).
 */
import { createPrefetchQueue, isSlowConnection, prefetchAddress } from '../lib/prefetch.ts';

const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
// `fetch`, not `<link rel=prefetch>`: its end is known, so the queue can wait for it. The answer
// lands in the browser's cache, which the navigation then revalidates (a 304 from the page cache).
// `Purpose: prefetch` tells the server this is not a view of the page. A fetch settles when the
// headers arrive: its body is read too, so that a slot frees only when the request is done.
const queue = createPrefetchQueue((address) =>
  fetch(address, { credentials: 'same-origin', priority: 'low', headers: { purpose: 'prefetch' } } as RequestInit).then((response) => response.blob()),
);

function prefetchLink(target: EventTarget | null, urgent = false): void {
  const link = (target as Element | null)?.closest?.('a[data-prefetch]') as HTMLAnchorElement | null;
  if (!link || !navigator.onLine || (!urgent && isSlowConnection(connection))) return;
  const address = prefetchAddress(link, location);
  if (address) queue.add(address, urgent);
}

let hover: ReturnType<typeof setTimeout> | undefined;
const later = (event: Event): void => {
  clearTimeout(hover);
  hover = setTimeout(prefetchLink, 80, event.target);
};
document.addEventListener('mouseover', later, { passive: true });
document.addEventListener('mouseout', () => clearTimeout(hover), { passive: true });
document.addEventListener('focusin', later, { passive: true });
for (const type of ['touchstart', 'mousedown']) {
  document.addEventListener(type, (event) => prefetchLink(event.target, true), { passive: true });
}

if (matchMedia('(hover: none)').matches && 'IntersectionObserver' in window) {
  const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();
  const observer = new IntersectionObserver((entries) => {
    for (const { target, isIntersecting } of entries) {
      clearTimeout(timers.get(target));
      if (!isIntersecting) continue;
      timers.set(
        target,
        setTimeout(() => {
          observer.unobserve(target);
          prefetchLink(target);
        }, 300),
      );
    }
  });
  for (const link of document.querySelectorAll('a[data-prefetch]')) observer.observe(link);
}
