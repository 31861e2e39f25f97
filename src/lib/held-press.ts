/**
 * A press on a control an island serves from elsewhere on the page (`client:interaction` with
 * `on`), made before the island's code arrived: the directive marks the control with this
 * attribute and announces it with this event on `document`; the island performs it and removes
 * the mark (`takeHeldPress`).
 */
export const HELD_PRESS_ATTRIBUTE = 'data-held-press';
export const HELD_PRESS_EVENT = 'copperhub:held-press';

/** The held press among the controls matching `selector`, taken (its mark removed), or null. */
export function takeHeldPress(root: ParentNode, selector: string): Element | null {
  const control = root.querySelector(`${selector}[${HELD_PRESS_ATTRIBUTE}]`);
  control?.removeAttribute(HELD_PRESS_ATTRIBUTE);
  return control;
}
