import { guardedReload, showReloadNotice } from './reload-guard.ts';

/** How often an open tab asks whether a new build was deployed. */
export const BUILD_CHECK_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Compares this page's build id with `/_build/latest.json`. After a deployment a tab whose reader
 * typed nothing reloads the next time it becomes visible (never under the user's hands), at most
 * once per 10 s; a tab with something typed into it (a form, a comment, a search) is never
 * reloaded: it offers the new version in a quiet notice, and the reader reloads on their word or
 * gets it at their next navigation.
 */
export function watchForNewBuild(currentId: string): void {
  let stale = false;
  let typed = false;
  document.addEventListener('input', () => (typed = true), { capture: true });
  const check = async () => {
    if (stale) return;
    try {
      const response = await fetch('/_build/latest.json', { cache: 'no-store' });
      if (!response.ok) return;
      const latest = (await response.json()) as { id?: string };
      if (latest.id && latest.id !== currentId) stale = true;
    } catch {
      // offline or deploying: try again later
    }
  };
  const offer = () => (typed ? showReloadNotice('version') : guardedReload());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      if (stale) offer();
      else void check();
    }
  });
  setInterval(() => document.visibilityState === 'visible' && void check(), BUILD_CHECK_INTERVAL_MS);
}
