/**
 * Route preloads: which links a page may fetch ahead of a click, and a queue that never has more
 * than {@link MAX_PREFETCHES_IN_FLIGHT} of them in flight. Pure; `src/scripts/prefetch.ts` wires it
 * to hover, focus, taps and the viewport. See docs/pages-and-speed.md, "Route preloads".
 */

/** The specification's limit (issue 26, point 5): "never more than 5 at once". */
export const MAX_PREFETCHES_IN_FLIGHT = 5;

/**
 * Addresses that change something, start a sign-in or are not pages: following them has an
 * effect or a cost, so nothing fetches them ahead. `/logout` only asks today, but a prefetch must
 * never be one step away from signing a visitor out.
 */
const NEVER = /^\/(?:m\/)?(?:logout|sso|api|files|video|admin|create)(?:[/?.]|$)|\.(?:zip|csv|xml|json|txt|glb|mp4)$/;

/** What of a link decides whether it may be prefetched (an `HTMLAnchorElement` has all of it). */
export interface LinkLike {
  href: string;
  target: string;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
}

/**
 * The address to prefetch for `link` on the page at `here`, or `null`: only same-origin pages
 * other than this one, never a link that downloads, opens elsewhere, is marked `data-no-prefetch`
 * or `rel="nofollow"`, or leads to a sign-out, a sign-in, the API, stored files, a form or the
 * switch between the phone and desktop sites.
 */
export function prefetchAddress(link: LinkLike, here: { origin: string; pathname: string; search: string }): string | null {
  if (link.hasAttribute('download') || link.hasAttribute('data-no-prefetch')) return null;
  if (link.target && link.target !== '_self') return null;
  if (/\bnofollow\b/i.test(link.getAttribute('rel') ?? '')) return null;
  let url: URL;
  try {
    url = new URL(link.href, here.origin);
  } catch {
    return null;
  }
  if (url.origin !== here.origin || !/^https?:$/.test(url.protocol)) return null;
  if (url.pathname === here.pathname && url.search === here.search) return null;
  if (NEVER.test(url.pathname)) return null;
  // `?desktop=` switches between the phone and desktop sites (a cookie): a choice, not a page.
  if (url.searchParams.has('desktop')) return null;
  return url.pathname + url.search;
}

/** A connection the visitor pays for or that is slow: no prefetching (a tap's own may still go). */
export function isSlowConnection(connection: { saveData?: boolean; effectiveType?: string } | undefined): boolean {
  return Boolean(connection && (connection.saveData || /2g/.test(connection.effectiveType ?? '')));
}

/** A queue of addresses fetched at most `limit` at a time, each at most once per page. */
export interface PrefetchQueue {
  /** Queues `address` (at the front when `urgent`: the visitor is pressing its link); a known address is ignored. */
  add(address: string, urgent?: boolean): void;
  /** Requests started and not finished. */
  readonly inFlight: number;
}

/**
 * A queue over `load`, which fetches one address and settles when it is done (success or not).
 * At most `limit` loads run at once; the next waiting address starts when one settles.
 */
export function createPrefetchQueue(load: (address: string) => Promise<unknown>, limit = MAX_PREFETCHES_IN_FLIGHT): PrefetchQueue {
  const seen = new Set<string>();
  const waiting: string[] = [];
  let inFlight = 0;
  const next = (): void => {
    while (inFlight < limit && waiting.length) {
      inFlight++;
      void load(waiting.shift()!)
        .catch(() => undefined)
        .then(() => {
          inFlight--;
          next();
        });
    }
  };
  return {
    add(address, urgent = false) {
      if (seen.has(address)) {
        // A press on a link still waiting moves it to the front.
        const at = urgent ? waiting.indexOf(address) : -1;
        if (at > 0) waiting.unshift(...waiting.splice(at, 1));
        return;
      }
      seen.add(address);
      if (urgent) waiting.unshift(address);
      else waiting.push(address);
      next();
    },
    get inFlight() {
      return inFlight;
    },
  };
}

/**
 * Whether a request is a prefetch (ours sends `Purpose: prefetch`; browsers' own send
 * `Sec-Purpose: prefetch`), given its header reader: it is not a view, the click that follows is.
 */
export function isPrefetchRequest(header: (name: string) => string | string[] | null | undefined): boolean {
  return /prefetch/i.test(`${header('purpose') ?? ''} ${header('sec-purpose') ?? ''}`);
}
