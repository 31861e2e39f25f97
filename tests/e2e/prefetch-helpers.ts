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
 * Holds every prefetch of a project page at the browser's network layer (Chromium's Fetch domain)
 * until `release()`: what the page's queue sent while the visitor went on is then exactly what is
 * held. Other requests pass at once.
 */
export async function holdPrefetches(page: Page): Promise<{ held: () => number; release: () => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  const waiting: string[] = [];
  let holding = true;
  cdp.on('Fetch.requestPaused', (event) => {
    if (holding && event.request.headers['purpose'] === 'prefetch') waiting.push(event.requestId);
    else void cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined);
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/d-*', requestStage: 'Request' }] });
  return {
    held: () => waiting.length,
    release: async () => {
      holding = false;
      for (const requestId of waiting.splice(0)) await cdp.send('Fetch.continueRequest', { requestId });
    },
  };
}
