import { expect, it } from 'vitest';
import { guardedReload } from '../../src/lib/reload-guard.ts';

it('reloads after a failed load, but not twice within ten seconds', () => {
  const store = new Map<string, string>();
  const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) };
  let reloads = 0;
  const reload = () => void (reloads += 1);
  expect(guardedReload(100_000, storage, reload)).toBe(true);
  expect(guardedReload(105_000, storage, reload)).toBe(false);
  expect(guardedReload(110_001, storage, reload)).toBe(true);
  expect(reloads).toBe(2);
});
