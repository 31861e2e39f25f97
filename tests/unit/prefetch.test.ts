import { describe, expect, it } from 'vitest';
import { createPrefetchQueue, isPrefetchRequest, isSlowConnection, MAX_PREFETCHES_IN_FLIGHT, prefetchAddress, type LinkLike } from '../../src/lib/prefetch.ts';

const here = { origin: 'https://copperhub.test', pathname: '/', search: '' };

function link(href: string, attributes: Record<string, string> = {}): LinkLike {
  return {
    href: new URL(href, here.origin).toString(),
    target: attributes.target ?? '',
    hasAttribute: (name) => name in attributes,
    getAttribute: (name) => attributes[name] ?? null,
  };
}

describe('which links are prefetched', () => {
  it('prefetches pages of this site: projects, lists, tags, members, the electronics page', () => {
    expect(prefetchAddress(link('/d-abc123'), here)).toBe('/d-abc123');
    expect(prefetchAddress(link('/m/d-abc123#comments'), here)).toBe('/m/d-abc123');
    expect(prefetchAddress(link('/newest?tag=sensors&page=2'), here)).toBe('/newest?tag=sensors&page=2');
    expect(prefetchAddress(link('/u/ada'), here)).toBe('/u/ada');
    expect(prefetchAddress(link('/eda/abc123'), here)).toBe('/eda/abc123');
  });

  it('never prefetches what signs out, signs in, changes something or is not a page', () => {
    for (const href of ['/logout', '/m/logout', '/logout?back=/', '/sso/login?redirect=x', '/api/project/star', '/files/attachments/ab/1.zip', '/eda/abc123/fabrication.zip', '/eda/abc123/bom.csv?format=jlc', '/rss.xml', '/create/project', '/m/create/project', '/admin', '/video/stream/x.mp4', '/d-abc123?desktop=1', '/m/newest?desktop=0']) {
      expect(prefetchAddress(link(href), here), href).toBeNull();
    }
  });

  it('never prefetches downloads, other windows, nofollow, opted-out links, other sites or this very page', () => {
    expect(prefetchAddress(link('/d-abc123', { download: '' }), here)).toBeNull();
    expect(prefetchAddress(link('/d-abc123', { target: '_blank' }), here)).toBeNull();
    expect(prefetchAddress(link('/d-abc123', { target: '_self' }), here)).toBe('/d-abc123');
    expect(prefetchAddress(link('/d-abc123', { rel: 'nofollow noopener' }), here)).toBeNull();
    expect(prefetchAddress(link('/d-abc123', { 'data-no-prefetch': '' }), here)).toBeNull();
    expect(prefetchAddress(link('https://example.com/d-abc123'), here)).toBeNull();
    expect(prefetchAddress(link('/#main'), here)).toBeNull();
  });

  it('skips on a saved-data or 2g connection', () => {
    expect(isSlowConnection({ saveData: true, effectiveType: '4g' })).toBe(true);
    expect(isSlowConnection({ effectiveType: 'slow-2g' })).toBe(true);
    expect(isSlowConnection({ effectiveType: '4g' })).toBe(false);
    expect(isSlowConnection(undefined)).toBe(false);
  });

  it('tells a prefetch from a visit, so a prefetch counts no view', () => {
    expect(isPrefetchRequest((name) => ({ purpose: 'prefetch' })[name])).toBe(true);
    expect(isPrefetchRequest((name) => ({ 'sec-purpose': 'prefetch;prerender' })[name])).toBe(true);
    expect(isPrefetchRequest(() => undefined)).toBe(false);
  });
});

describe('the prefetch queue', () => {
  /** A load per address that the test finishes by hand. */
  function loads() {
    const pending = new Map<string, () => void>();
    const started: string[] = [];
    const load = (address: string) =>
      new Promise<void>((resolve) => {
        started.push(address);
        pending.set(address, resolve);
      });
    const finish = async (address: string) => {
      pending.get(address)!();
      pending.delete(address);
      await new Promise((resolve) => setTimeout(resolve, 0));
    };
    return { load, started, finish };
  }

  it(`keeps at most ${MAX_PREFETCHES_IN_FLIGHT} in flight and starts the next when one ends`, async () => {
    expect(MAX_PREFETCHES_IN_FLIGHT).toBe(5);
    const { load, started, finish } = loads();
    const queue = createPrefetchQueue(load);
    for (let i = 1; i <= 8; i++) queue.add(`/d-${i}`);
    expect(started).toEqual(['/d-1', '/d-2', '/d-3', '/d-4', '/d-5']);
    expect(queue.inFlight).toBe(5);
    await finish('/d-2');
    expect(started).toEqual(['/d-1', '/d-2', '/d-3', '/d-4', '/d-5', '/d-6']);
    expect(queue.inFlight).toBe(5);
  });

  it('fetches an address once, and a pressed link before the hovered ones', async () => {
    const { load, started, finish } = loads();
    const queue = createPrefetchQueue(load, 1);
    queue.add('/d-1');
    queue.add('/d-2');
    queue.add('/d-3');
    queue.add('/d-1');
    queue.add('/d-3', true);
    await finish('/d-1');
    expect(started).toEqual(['/d-1', '/d-3']);
    await finish('/d-3');
    await finish('/d-2');
    queue.add('/d-2');
    expect(started).toEqual(['/d-1', '/d-3', '/d-2']);
  });

  it('goes on after a failed fetch', async () => {
    let calls = 0;
    const queue = createPrefetchQueue(() => (++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve()), 1);
    queue.add('/d-1');
    queue.add('/d-2');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toBe(2);
    expect(queue.inFlight).toBe(0);
  });
});
