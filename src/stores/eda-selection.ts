import { atom, computed } from 'nanostores';
import type { BomLine } from '../lib/contract/schemas/eda.ts';

/** Where a selection came from: the table scrolls to its row only when it was not picked there. */
export type SelectionSource = 'table' | 'board' | 'search';

export interface EdaSelection {
  lineNo: number | null;
  source: SelectionSource | null;
}

/**
 * The BOM line the reader picked and the one under the pointer, shared by the BOM table and the
 * board viewer of one page (both islands import this module, so they see the same stores).
 */
export const $edaSelection = atom<EdaSelection>({ lineNo: null, source: null });
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

/** The line a typed designator (`r10`, ` U1 `) names, if any. */
export function findDesignator(index: Record<string, number>, query: string): number | null {
  return index[query.trim().toUpperCase()] ?? null;
}

/** Selects `lineNo`; selecting the selected line again from the table clears the selection. */
export function selectLine(lineNo: number | null, source: SelectionSource): void {
  const current = $edaSelection.get();
  const same = lineNo !== null && current.lineNo === lineNo && source === 'table';
  $edaSelection.set(same ? { lineNo: null, source } : { lineNo, source });
}

export const hoverLine = (lineNo: number | null): void => $edaHover.set(lineNo);
