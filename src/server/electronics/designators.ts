/**
 * Reference designators as BOMs write them: `C4, C8, C10`, `R1 R2;R3`, ranges `R1-R4`, `R1..R4`,
 * `D2-5`, each expanded to one designator per part so a BOM line can find its parts on the board.
 */

/** Designators one BOM cell may expand to: `R1-R999999999` must not become a billion strings. */
export const MAX_DESIGNATORS_PER_LINE = 1000;

const RANGE = /^([A-Za-z_]*)(\d+)(?:-|\.\.|–|~)([A-Za-z_]*)(\d+)$/;

/** Every designator of a BOM cell, in order, without duplicates, at most `MAX_DESIGNATORS_PER_LINE`. */
export function expandDesignators(cell: string, limit = MAX_DESIGNATORS_PER_LINE): string[] {
  // Spaces around a range sign belong to the range ("R1 - R4"), not between two designators.
  const tokens = cell
    .replace(/\s*(\.\.|–|~)\s*/g, '$1')
    .replace(/(\d)\s+-\s*(?=[A-Za-z_]*\d)/g, '$1-')
    .split(/[\s,;/|]+/)
    .filter(Boolean);
  const out = new Set<string>();
  for (const token of tokens) {
    if (out.size >= limit) break;
    const range = RANGE.exec(token);
    if (range && (range[3] === '' || range[3] === range[1])) {
      const prefix = range[1]!;
      const from = Number(range[2]);
      const to = Number(range[4]);
      const step = from <= to ? 1 : -1;
      // `R01-R04` keeps its zero padding.
      const width = range[2]!.startsWith('0') ? range[2]!.length : 0;
      for (let n = from; out.size < limit; n += step) {
        out.add(`${prefix}${String(n).padStart(width, '0')}`);
        if (n === to) break;
      }
      continue;
    }
    out.add(token.slice(0, 100));
  }
  return [...out];
}
