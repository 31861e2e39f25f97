import type { ClientDirective } from 'astro';

/** Signs that the visitor is about to use the island: start fetching its code now. */
const INTENT = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

/**
 * Hydrates an island on the visitor's first sign of using it. A click or a form submission that
 * lands before the code has arrived is held (its default prevented, so a button inside a form
 * does not post the page) and performed again once the island is live, on the same element if it
 * is still there: an early tap on "Star" stars. Links are left alone: the island's links work
 * without JavaScript (sorting and paging comments are ordinary addresses).
 */
const interaction: ClientDirective = (load, options, el) => {
  let started = false;
  let held: { target: HTMLElement; submit: boolean } | null = null;

  const hold = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (event.type === 'submit') {
      event.preventDefault();
      held = { target: (event as SubmitEvent).submitter ?? (target as HTMLElement), submit: true };
      return;
    }
    const control = target?.closest<HTMLElement>('button, [role="button"], input[type="submit"], input[type="checkbox"], summary');
    if (!control || !el.contains(control)) return;
    event.preventDefault();
    event.stopPropagation();
    held = { target: control, submit: false };
  };

  const start = async () => {
    if (started) return;
    started = true;
    for (const type of INTENT) el.removeEventListener(type, start);
    el.addEventListener('click', hold, true);
    el.addEventListener('submit', hold, true);
    try {
      const hydrate = await load();
      await hydrate();
    } finally {
      el.removeEventListener('click', hold, true);
      el.removeEventListener('submit', hold, true);
    }
    const action = held;
    held = null;
    if (!action || !action.target.isConnected) return;
    // After `hydrate()` the framework listens on the island; a fresh event reaches its handlers.
    if (action.submit) action.target.closest('form')?.requestSubmit(action.target instanceof HTMLButtonElement ? action.target : undefined);
    else action.target.click();
  };

  for (const type of INTENT) el.addEventListener(type, start, { passive: true });
  // At once when the visitor is already at it (a reload with the mouse resting on it, focus
  // inside), when the address points into it (`#comments` after signing in to comment, a comment's
  // permalink), or when the page asks (`{ now: true }`: it came back to finish something).
  const now = typeof options.value === 'object' && options.value !== null && (options.value as { now?: unknown }).now === true;
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
