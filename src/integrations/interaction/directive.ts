import type { ClientDirective } from 'astro';

import { HELD_PRESS_ATTRIBUTE, HELD_PRESS_EVENT } from '../../lib/held-press.ts';

/** Signs that the visitor is about to use the island: start fetching its code now. */
const INTENT = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

/**
 * Hydrates an island on the visitor's first sign of using it. A click or a form submission that
 * lands before the code has arrived is held (its default prevented, so a button inside a form
 * does not post the page) and performed again once the island is live, on the same element if it
 * is still there: an early tap on "Star" stars. Links are left alone: the island's links work
 * without JavaScript (sorting and paging comments are ordinary addresses).
 *
 * `{ on: selector }`: the island also serves controls elsewhere on the page (the plain save
 * buttons of every project card open the one `CardSaveMenus`): using any of them starts it too,
 * and a press on one before the code has arrived is held and performed again in the same way.
 */
const interaction: ClientDirective = (load, options, el) => {
  let started = false;
  let held: { target: HTMLElement; submit: boolean } | null = null;
  const value = typeof options.value === 'object' && options.value !== null ? (options.value as { now?: unknown; on?: unknown }) : {};
  const servedElsewhere = typeof value.on === 'string' ? value.on : null;
  /** Whether `control` belongs to the island: inside it, or one of the controls it serves elsewhere. */
  const serves = (control: Element) => el.contains(control) || (servedElsewhere !== null && control.matches(servedElsewhere));
  const startFromElsewhere = (event: Event) => {
    if (servedElsewhere && event.target instanceof Element && event.target.closest(servedElsewhere)) void start();
  };

  const hold = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (event.type === 'submit') {
      event.preventDefault();
      held = { target: (event as SubmitEvent).submitter ?? (target as HTMLElement), submit: true };
      return;
    }
    const control = target?.closest<HTMLElement>('button, [role="button"], input[type="submit"], input[type="checkbox"], summary');
    if (!control || !serves(control)) return;
    event.preventDefault();
    event.stopPropagation();
    held = { target: control, submit: false };
  };

  const start = async () => {
    if (started) return;
    started = true;
    for (const type of INTENT) el.removeEventListener(type, start);
    for (const type of INTENT) document.removeEventListener(type, startFromElsewhere, true);
    // Presses on the controls it serves elsewhere are held at the document, where they pass first.
    const holder: Document | HTMLElement = servedElsewhere ? document : el;
    holder.addEventListener('click', hold, true);
    holder.addEventListener('submit', hold, true);
    try {
      const hydrate = await load();
      await hydrate();
    } finally {
      holder.removeEventListener('click', hold, true);
      holder.removeEventListener('submit', hold, true);
    }
    const action = held;
    held = null;
    if (!action || !action.target.isConnected) return;
    if (!el.contains(action.target)) {
      // A control it serves elsewhere: the island performs the press itself once its listeners
      // are on (they may start after `hydrate()` resolves), from the mark or from the event.
      action.target.setAttribute(HELD_PRESS_ATTRIBUTE, '');
      document.dispatchEvent(new CustomEvent(HELD_PRESS_EVENT));
      return;
    }
    // After `hydrate()` the framework listens on the island; a fresh event reaches its handlers.
    if (action.submit) action.target.closest('form')?.requestSubmit(action.target instanceof HTMLButtonElement ? action.target : undefined);
    else action.target.click();
  };

  for (const type of INTENT) el.addEventListener(type, start, { passive: true });
  if (servedElsewhere) for (const type of INTENT) document.addEventListener(type, startFromElsewhere, { passive: true, capture: true });
  // At once when the visitor is already at it (a reload with the mouse resting on it, focus
  // inside), when the address points into it (`#comments` after signing in to comment, a comment's
  // permalink), or when the page asks (`{ now: true }`: it came back to finish something).
  const now = value.now === true;
  if (now || el.matches(':hover') || el.contains(document.activeElement) || addressed(el)) void start();
};

/** Whether the page's `#fragment` names the island, something inside it, or a section around it. */
function addressed(el: HTMLElement): boolean {
  let id = '';
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return false;
  }
  const target = id ? document.getElementById(id) : null;
  return target !== null && (target.contains(el) || el.contains(target));
}

export default interaction;
