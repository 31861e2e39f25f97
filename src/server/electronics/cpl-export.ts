/**
 * A board's part placements as JLCPCB's assembly placement (CPL) file: `Designator, Mid X, Mid Y,
 * Layer, Rotation`, positions in millimetres written with their unit (`12.5mm`), `Top`/`Bottom`.
 *
 * Coordinates. JLC lines the CPL up with the Gerbers it receives, so positions are given in the
 * Gerber files' own coordinates (mm, y up), as KiCad's `.pos` file with the default origin gives
 * them: the parts as placed on the rendered board (`boards.parts`, registered to its pads,
 * `alignPlacements`) are taken back from the board's frame into Gerber coordinates through the
 * render's view box. A placement file written from an auxiliary origin thus still lands on its
 * pads. Bottom-side parts keep their position as seen from the top, which is how KiCad's and
 * JLC's placement files both give them (not mirrored).
 *
 * Rotation. The angle of the placement file, counter-clockwise in degrees, normalised to
 * [0, 360) and otherwise unchanged, on both sides: KiCad's `.pos` rotation is what JLC's CPL
 * takes for most parts. JLC orients each part by its own library's reel orientation, which
 * differs from KiCad's footprints for some packages (SOT-23, some ICs and polarised parts);
 * tools correct those from a table of footprint names (JLCKicadTools, KiBot's
 * `_rot_footprint_jlcpcb`, the Fabrication Toolkit's rotation database), which needs the
 * footprint name, and JLC's own placement preview lets the buyer turn any part before ordering.
 * This file does not guess such corrections.
 */
import Papa from 'papaparse';
import type { AlignedPlacement } from './placement-alignment.ts';

/** JLC's CPL header, in its order. */
export const JLC_CPL_HEADER = ['Designator', 'Mid X', 'Mid Y', 'Layer', 'Rotation'] as const;

/** Cells a spreadsheet would run as a formula when the file is opened (designators come from uploads). */
const FORMULA_START = /^[=+\-@\t\r]/;

const millimetres = (n: number) => `${Number((Math.round(n * 1000) / 1000).toFixed(3))}mm`;

/** An angle in degrees as a value in [0, 360), three decimals at most. */
export function normaliseRotation(degrees: number): number {
  if (!Number.isFinite(degrees)) return 0;
  const turned = ((degrees % 360) + 360) % 360;
  const rounded = Math.round(turned * 1000) / 1000;
  return rounded === 360 ? 0 : rounded;
}

/**
 * The CPL of `parts` (in the board's frame: mm from its left and top edges, y down) on a board
 * whose render's view box in Gerber coordinates is `viewBoxMm` (`[minX, minY, width, height]`,
 * y up) and whose height is `heightMm`. Ordered by designator, naturally (R2 before R10).
 */
export function exportJlcCpl(parts: readonly AlignedPlacement[], viewBoxMm: readonly [number, number, number, number], heightMm: number): string {
  const [vx, vy] = viewBoxMm;
  const top = vy + heightMm;
  const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const sorted = [...parts].sort((a, b) => collator.compare(a.designator, b.designator));
  const data = sorted.map((part) => [
    // Only the designator is text from an upload; coordinates may be negative numbers and stay as they are.
    FORMULA_START.test(part.designator) ? `'${part.designator}` : part.designator,
    millimetres(vx + part.xMm),
    millimetres(top - part.yMm),
    part.side === 'bottom' ? 'Bottom' : 'Top',
    String(normaliseRotation(part.rotation)),
  ]);
  return `${Papa.unparse({ fields: [...JLC_CPL_HEADER], data }, { newline: '\r\n' })}\r\n`;
}
