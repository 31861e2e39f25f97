import { describe, expect, it } from 'vitest';
import { serverHeapMb, serverNodeFlags, readConfig } from '../../src/server/config.ts';

describe('the server process’s heap bound', () => {
  it('leaves room for the page cache’s budget and its members’ quarter, over a fixed margin', () => {
    expect(serverHeapMb(readConfig({}))).toBe(256 + 80);
    expect(serverHeapMb(readConfig({ PAGE_CACHE_MB: '1024' }))).toBe(256 + 1280);
  });

  it('is what `npm start` starts the server with, with the young generation’s bound and the old generation’s growth, each unless the operator set their own', () => {
    expect(serverNodeFlags({ PAGE_CACHE_MB: '128' }, [])).toEqual(['--max-old-space-size=416', '--max-semi-space-size=32', '--heap-growing-percent=50']);
    expect(serverNodeFlags({ NODE_OPTIONS: '--enable-source-maps --max-old-space-size=2048' }, [])).toEqual(['--max-semi-space-size=32', '--heap-growing-percent=50']);
    expect(serverNodeFlags({}, ['--max-old-space-size=900'])).toEqual(['--max-semi-space-size=32', '--heap-growing-percent=50']);
    // Node takes `--heap-growing-percent` on its command line only.
    expect(serverNodeFlags({}, ['--heap-growing-percent=20'])).toEqual(['--max-old-space-size=336', '--max-semi-space-size=32']);
    expect(serverNodeFlags({ NODE_OPTIONS: '--max-semi-space-size=64 --max-old-space-size=2048' }, ['--heap-growing-percent=20'])).toEqual([]);
  });
});
