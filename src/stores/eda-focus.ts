import { atom } from 'nanostores';

/**
 * A place the reader asked to see: a point on the board (a DRC item, in mm from the board's left
 * and top edges) or on a schematic sheet (an ERC item, in mm from the sheet's top-left corner).
 */
export type EdaFocus = { on: 'board'; xMm: number; yMm: number } | { on: 'sheet'; page: number; xMm: number; yMm: number };

/**
 * The place waiting to be shown, shared by the page's islands: set by a design-check link, taken
 * (and cleared) by the viewer that shows it once it is on screen and has a size.
 */
export const $edaFocus = atom<EdaFocus | null>(null);

/** Takes the place waiting for `on`, if any: the viewer that calls this shows it. */
export function takeFocus<On extends EdaFocus['on']>(on: On): Extract<EdaFocus, { on: On }> | null {
  const focus = $edaFocus.get();
  if (focus?.on !== on) return null;
  $edaFocus.set(null);
  return focus as Extract<EdaFocus, { on: On }>;
}

/** The attribute a design-check link carries: `board:x,y` or `sheet:page:x,y` (mm). */
export const FOCUS_ATTRIBUTE = 'data-eda-focus';

/** The value of `data-eda-focus` for a place. */
export function focusAttribute(focus: EdaFocus): string {
  const at = `${round(focus.xMm)},${round(focus.yMm)}`;
  return focus.on === 'board' ? `board:${at}` : `sheet:${focus.page}:${at}`;
}

const round = (mm: number) => Math.round(mm * 1000) / 1000;

/** The place a `data-eda-focus` value names, or null for anything else. */
export function parseFocusAttribute(value: string | null | undefined): EdaFocus | null {
  const match = /^(board|sheet:(\d+)):(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(value ?? '');
  if (!match) return null;
  const xMm = Number(match[3]);
  const yMm = Number(match[4]);
  if (match[1] === 'board') return { on: 'board', xMm, yMm };
  const page = Number(match[2]);
  return page >= 1 ? { on: 'sheet', page, xMm, yMm } : null;
}

let watching = 0;

function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.(`[${FOCUS_ATTRIBUTE}]`);
  const focus = parseFocusAttribute(link?.getAttribute(FOCUS_ATTRIBUTE));
  if (!focus) return;
  // The link's own address (the sheet or the board, for a page without JavaScript) is not followed: the viewer shows the place.
  event.preventDefault();
  $edaFocus.set(focus);
}

/**
 * Design-check links anywhere on the page set `$edaFocus` when clicked, from the first viewer
 * that starts to the last that stops (the checks are server-rendered: they need no island).
 * Returns how to stop.
 */
export function watchFocusLinks(): () => void {
  if (watching === 0) document.addEventListener('click', onClick);
  watching += 1;
  return () => {
    watching -= 1;
    if (watching === 0) document.removeEventListener('click', onClick);
  };
}
