import { atom, computed } from 'nanostores';
import type { BomLine, Placement } from '../lib/contract/schemas/eda.ts';

/**
 * Where a selection came from: the table scrolls to its row only when it was picked on the board;
 * the schematic centres a part picked anywhere but on itself (the board, the address).
 */
export type SelectionSource = 'table' | 'board' | 'search' | 'schematic' | 'address';

export interface EdaSelection {
  lineNo: number | null;
  /** The one part picked (on the board, in the schematic, in the address); null when a whole BOM line was. */
  ref: string | null;
  source: SelectionSource | null;
}

export const NO_SELECTION: EdaSelection = { lineNo: null, ref: null, source: null };

/**
 * The BOM line (and the part of it) the reader picked and the line under the pointer, shared by
 * the BOM table, the board viewer and the schematic of one page (the islands import this module,
 * so they see the same stores): picking a part in one shows it in the others.
 */
export const $edaSelection = atom<EdaSelection>(NO_SELECTION);
export const $edaHover = atom<number | null>(null);

/** The line whose parts the board marks: the hovered one, else the selected one. */
export const $edaHighlight = computed([$edaHover, $edaSelection], (hover, selection) => hover ?? selection.lineNo);

/** Which BOM line each designator belongs to (designators compared in upper case). */
export function lineByDesignator(lines: readonly BomLine[]): Record<string, number> {
  const index: Record<string, number> = {};
  for (const line of lines) for (const designator of line.designators) index[designator.toUpperCase()] ??= line.lineNo;
  return index;
}

/** The designators of the line `lineNo`, upper-cased to match placements whatever the files' case. */
export function designatorsOf(lines: readonly BomLine[], lineNo: number | null): Set<string> {
  const line = lineNo === null ? undefined : lines.find((candidate) => candidate.lineNo === lineNo);
  return new Set(line?.designators.map((designator) => designator.toUpperCase()) ?? []);
}

/** Whether the board marks `designator`: the one part picked, or a part of the highlighted line (any case). */
export function isLit(designator: string, lineIndex: Record<string, number>, highlight: number | null, picked: string | null): boolean {
  const upper = designator.toUpperCase();
  return upper === picked?.toUpperCase() || (highlight !== null && lineIndex[upper] === highlight);
}

/** The side of the board that shows most of the marked parts: the top when none are, or as many on each. */
export function sideOfLit(lit: readonly Pick<Placement, 'side'>[]): Placement['side'] {
  const bottom = lit.filter((part) => part.side === 'bottom').length;
  return bottom > lit.length - bottom ? 'bottom' : 'top';
}

/** The line a typed designator (`r10`, ` U1 `) names, if any. */
export function findDesignator(index: Record<string, number>, query: string): number | null {
  return index[query.trim().toUpperCase()] ?? null;
}

/** Selects `lineNo`; selecting the selected line again from the table clears the selection. */
export function selectLine(lineNo: number | null, source: SelectionSource): void {
  const current = $edaSelection.get();
  const same = lineNo !== null && current.lineNo === lineNo && source === 'table';
  $edaSelection.set(same ? { lineNo: null, ref: null, source } : { lineNo, ref: null, source });
}

/**
 * Selects one part (`R10`, as its file writes it) and its BOM line (null when the BOM does not
 * list it: the part is still shown where it is drawn and placed).
 */
export function selectPart(ref: string, lineNo: number | null, source: SelectionSource): void {
  $edaSelection.set({ lineNo, ref, source });
}

export const hoverLine = (lineNo: number | null): void => $edaHover.set(lineNo);
