import type { Page, Request } from '@playwright/test';

/** What the page's prefetches did: every address fetched, and the most ever in flight at once. */
export interface PrefetchLog {
  addresses: string[];
  maxInFlight: () => number;
  inFlight: () => number;
  /** Prefetch requests, in order, as Playwright saw them (for timing against a click). */
  requests: Request[];
}

/** Our prefetches say `Purpose: prefetch`; counts them from request to finish (or failure). */
export function recordPrefetches(page: Page): PrefetchLog {
  const log: PrefetchLog = { addresses: [], requests: [], maxInFlight: () => max, inFlight: () => open.size };
  const open = new Set<Request>();
  let max = 0;
  page.on('request', (request) => {
    if (request.headers()['purpose'] !== 'prefetch') return;
    const url = new URL(request.url());
    log.addresses.push(url.pathname + url.search);
    log.requests.push(request);
    open.add(request);
    max = Math.max(max, open.size);
  });
  const done = (request: Request) => void open.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return log;
}

/**
 * Every request takes at least `latencyMs` (Chromium's own network emulation): prefetches then
 * overlap, and only a limit keeps them from all being in flight together.
 */
export async function slowNetwork(page: Page, latencyMs: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: latencyMs, downloadThroughput: -1, uploadThroughput: -1 });
}
