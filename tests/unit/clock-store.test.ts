import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORE_UNMOUNT_DELAY } from 'nanostores';

// The clock runs only in a browser (the server renders plain dates).
vi.stubGlobal('window', globalThis);
const { $now, CLOCK_TICK_MS } = await import('../../src/stores/clock.ts');

describe('$now', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('starts with the first relative time shown, ticks once a minute for all of them, and stops after the last', async () => {
    const seen: (number | null)[] = [];
    const stopA = $now.listen((now) => seen.push(now));
    expect($now.get()).toBe(Date.parse('2026-03-01T12:00:00Z'));
    const stopB = $now.listen(() => undefined);
    await vi.advanceTimersByTimeAsync(CLOCK_TICK_MS);
    expect(seen).toEqual([Date.parse('2026-03-01T12:01:00Z')]);
    expect(vi.getTimerCount()).toBe(1);
    stopA();
    stopB();
    await vi.advanceTimersByTimeAsync(STORE_UNMOUNT_DELAY);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(CLOCK_TICK_MS * 2);
    expect(seen).toHaveLength(1);
  });
});
