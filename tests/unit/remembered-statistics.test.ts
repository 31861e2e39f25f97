import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberStatistics } from '../../src/server/services/projects/totals.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('statistics remembered between requests', () => {
  it('ask PostgreSQL once for callers arriving together, and again only after ten minutes', async () => {
    vi.useFakeTimers();
    const kept = rememberStatistics<number>(10);
    const load = vi.fn(async () => 42);
    const [a, b] = await Promise.all([kept.get('rows', load), kept.get('rows', load)]);
    expect([a, b]).toEqual([42, 42]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(kept.known('rows')).toBe(42);
    vi.advanceTimersByTime(9 * 60_000);
    await kept.get('rows', load);
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2 * 60_000);
    expect(kept.known('rows')).toBeUndefined();
    await kept.get('rows', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('are known without asking only once answered, and a failed lookup is asked again', async () => {
    const kept = rememberStatistics<number>(10);
    let fail!: (error: Error) => void;
    const failing = kept.get('estimate', () => new Promise<number>((_, reject) => (fail = reject)));
    expect(kept.known('estimate')).toBeUndefined();
    fail(new Error('database unavailable'));
    await expect(failing).rejects.toThrow('database unavailable');
    expect(await kept.get('estimate', async () => 7)).toBe(7);
    expect(kept.known('estimate')).toBe(7);
  });

  it('keep at most their number of keys, the least recently used going first, and forget everything when told', async () => {
    const kept = rememberStatistics<string>(2);
    await kept.get('a', async () => 'A');
    await kept.get('b', async () => 'B');
    expect(kept.known('a')).toBe('A');
    // A third key makes room by forgetting the least recently used ('b': 'a' was just read), so a
    // crawler asking for every tag's list cannot grow it.
    await kept.get('c', async () => 'C');
    expect([kept.known('a'), kept.known('b'), kept.known('c')]).toEqual(['A', undefined, 'C']);
    kept.clear();
    expect(kept.known('c')).toBeUndefined();
  });
});
