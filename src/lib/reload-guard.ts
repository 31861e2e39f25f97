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

/** Why the page offers to reload: its code failed to load again, or a new version is out while the reader has typed. */
export type ReloadReason = 'chunk' | 'version';

/**
 * Shows the page's reload notice (a `<template id="reload-notice">` every layout's head carries,
 * worded in the page's language), once; the reader reloads with its button, or not at all.
 */
export function showReloadNotice(reason: ReloadReason, doc: Document = document): void {
  if (doc.querySelector('[data-reload-notice]')) return;
  const template = doc.getElementById('reload-notice') as HTMLTemplateElement | null;
  const notice = template?.content.firstElementChild?.cloneNode(true) as HTMLElement | undefined;
  if (!notice) return;
  for (const text of notice.querySelectorAll<HTMLElement>('[data-reason]')) if (text.dataset.reason !== reason) text.remove();
  // A failure is said at once; a new version waits politely for the reader.
  notice.setAttribute('role', reason === 'chunk' ? 'alert' : 'status');
  notice.querySelector('button')?.addEventListener('click', () => location.reload());
  doc.body.append(notice);
}

/**
 * A chunk of the page's code (an island, its language) could not be loaded, most likely because
 * a new deployment removed it: the page reloads once; failing again within ten seconds, it says
 * so and offers the reload instead of reloading in a loop.
 */
export function recoverFromChunkFailure(): void {
  if (!guardedReload()) showReloadNotice('chunk');
}
