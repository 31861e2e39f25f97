import type { BomLine } from './contract/schemas/eda.ts';
/**
 * What changed between two versions of a project, from what each version kept: BOM lines paired
 * the way a person reading two BOMs would pair them, and board layers lined up in Gerber
 * coordinates. Pure: the service reads the versions, this compares them.
 */

/** The fields of a BOM line that make it a different part or count when they differ. */
export const BOM_DIFF_FIELDS = ['designators', 'quantity', 'value', 'footprint', 'manufacturer', 'mpn', 'lcsc'] as const;

export interface ChangedLine {
  before: BomLine;
  after: BomLine;
  fields: string[];
}

export interface BomDiff {
  added: BomLine[];
  removed: BomLine[];
  changed: ChangedLine[];
}

const norm = (value: string) => value.trim().toLowerCase();
const designatorSet = (line: BomLine) => new Set(line.designators.map((d) => d.trim().toUpperCase()).filter(Boolean));

function differingFields(before: BomLine, after: BomLine): string[] {
  return BOM_DIFF_FIELDS.filter((field) => {
    if (field === 'designators') {
      const a = designatorSet(before);
      const b = designatorSet(after);
      return a.size !== b.size || [...a].some((d) => !b.has(d));
    }
    if (field === 'quantity') return before.quantity !== after.quantity;
    return norm(before[field]) !== norm(after[field]);
  });
}

/**
 * Pairs the lines of two BOMs and reports what was added, removed and changed. Lines are paired
 * first by the parts they place (the same designators, then the most designators shared: `R1,R2`
 * that became `R1,R2,R3` is one line whose quantity changed), then — for lines without
 * designators or whose designators all changed — by part number (MPN, then LCSC), then by value
 * and footprint together. Paired lines that differ in no compared field are left out.
 */
export function diffBom(before: BomLine[], after: BomLine[]): BomDiff {
  const left = new Set(before.map((_, index) => index));
  const right = new Set(after.map((_, index) => index));
  const pairs: [number, number][] = [];
  const pair = (i: number, j: number) => {
    pairs.push([i, j]);
    left.delete(i);
    right.delete(j);
  };

  // 1. The most designators shared, greedily from the largest overlap.
  const overlaps: { i: number; j: number; shared: number }[] = [];
  const afterSets = after.map(designatorSet);
  before.forEach((line, i) => {
    const mine = designatorSet(line);
    if (mine.size === 0) return;
    afterSets.forEach((theirs, j) => {
      let shared = 0;
      for (const d of mine) if (theirs.has(d)) shared++;
      if (shared > 0) overlaps.push({ i, j, shared });
    });
  });
  overlaps.sort((a, b) => b.shared - a.shared || a.i - b.i || a.j - b.j);
  for (const { i, j } of overlaps) if (left.has(i) && right.has(j)) pair(i, j);

  // 2. The same part number, then 3. the same value and footprint.
  const keys: ((line: BomLine) => string)[] = [(line) => norm(line.mpn), (line) => norm(line.lcsc), (line) => (norm(line.value) ? `${norm(line.value)}|${norm(line.footprint)}` : '')];
  for (const key of keys) {
    for (const i of [...left]) {
      const k = key(before[i]!);
      if (!k) continue;
      const j = [...right].find((candidate) => key(after[candidate]!) === k);
      if (j !== undefined) pair(i, j);
    }
  }

  const changed = pairs
    .map(([i, j]) => ({ before: before[i]!, after: after[j]!, fields: differingFields(before[i]!, after[j]!) }))
    .filter((change) => change.fields.length > 0)
    .sort((a, b) => a.after.lineNo - b.after.lineNo);
  return {
    added: [...right].sort((a, b) => a - b).map((j) => after[j]!),
    removed: [...left].sort((a, b) => a - b).map((i) => before[i]!),
    changed,
  };
}

/** A board's bounds in Gerber coordinates (mm): lower-left x, y, width, height. */
export type ViewBox = [number, number, number, number];

export interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where each of two boards' renders sits (percent) in one frame holding both, lined up by their
 * Gerber coordinates, so that a trace that did not move lies on itself. Layer SVGs are drawn in
 * their board's bounds with y growing downwards, so the top edge is the largest Gerber y.
 */
export function overlayFrames(before: ViewBox | null, after: ViewBox | null): { before: Frame | null; after: Frame | null; aspect: number } {
  const boxes = [before, after].filter((box): box is ViewBox => box !== null && box[2] > 0 && box[3] > 0);
  if (boxes.length === 0) return { before: null, after: null, aspect: 1 };
  const minX = Math.min(...boxes.map((b) => b[0]));
  const maxX = Math.max(...boxes.map((b) => b[0] + b[2]));
  const minY = Math.min(...boxes.map((b) => b[1]));
  const maxY = Math.max(...boxes.map((b) => b[1] + b[3]));
  const width = maxX - minX;
  const height = maxY - minY;
  const place = (box: ViewBox | null): Frame | null =>
    box && box[2] > 0 && box[3] > 0
      ? {
          left: round(((box[0] - minX) / width) * 100),
          top: round(((maxY - (box[1] + box[3])) / height) * 100),
          width: round((box[2] / width) * 100),
          height: round((box[3] / height) * 100),
        }
      : null;
  return { before: place(before), after: place(after), aspect: round(width / height) };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * A layer render with the converter's random id prefix made constant: gerber-to-svg names its
 * pads, blocks and clear masks `<12 random characters>_pad-…` (the characters may include `_`
 * and `-`), so the same Gerber file renders to the same text but for those ids.
 */
export function withoutRenderIds(svg: string): string {
  const prefix = /(?:id="|#)([A-Za-z_][\w-]{11})_(?:pad|block|clear)-/.exec(svg)?.[1];
  return prefix ? svg.split(`${prefix}_`).join('id_') : svg;
}
