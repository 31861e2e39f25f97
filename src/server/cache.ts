/**
 * A small in-process memo for expensive reads that may be a few seconds stale (home-page
 * aggregates). Each key keeps its value for `ttlMs`; concurrent misses share one load, and a
 * failed load is not kept; `clear()` forgets everything at once.
 */
export function memoize<T>(ttlMs: number, load: (key: string) => Promise<T>): ((key: string) => Promise<T>) & { clear(): void } {
  const entries = new Map<string, { value: Promise<T>; expires: number }>();
  const read = (key: string) => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const value = load(key);
    entries.set(key, { value, expires: now + ttlMs });
    value.catch(() => entries.delete(key));
    return value;
  };
  /** Forgets every kept value (the data changed: the next read loads again). */
  return Object.assign(read, { clear: () => entries.clear() });
}
