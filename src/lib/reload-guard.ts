const KEY = 'copperhub:last-reload';
/** At most one automatic reload per ten seconds (a reload after a failed chunk or locale load must not loop). */
export const RELOAD_GUARD_MS = 10_000;

/**
 * Reloads the page after a failed chunk or locale load, unless the last automatic reload was
 * less than ten seconds ago (which would mean the reload did not help). Returns whether it did.
 */
export function guardedReload(now = Date.now(), storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage, reload = () => location.reload()): boolean {
  const last = Number(storage.getItem(KEY) ?? 0);
  if (now - last < RELOAD_GUARD_MS) return false;
  storage.setItem(KEY, String(now));
  reload();
  return true;
}
