/**
 * The points where a Gerber layer flashes an aperture (D03) or fills a small region: on a paste
 * or copper layer, the centres of the pads. Placement files put a part's centroid between its pads, so these points
 * tell where a placement file's origin lies on the Gerbers (`alignPlacements`). Only the
 * coordinate format, units and flashes are read; drawing is left to the renderer.
 */

/** Flashes read at most: a paste layer has one per SMD pad. */
const MAX_FLASHES = 100_000;

/** Flash centres of a Gerber layer, in millimetres, in the file's coordinates (y up). */
export function gerberFlashes(text: string): Array<[number, number]> {
  let integerDigits = 3;
  let decimals = 6;
  let trailingZerosOmitted = false;
  let mmPerUnit = 1;
  let x = 0;
  let y = 0;
  const flashes: Array<[number, number]> = [];
  // Pads drawn as regions (KiCad 5 writes rounded-rectangle pads as G36…G37 polygons): their centre is a pad too.
  let region: { minX: number; maxX: number; minY: number; maxY: number } | null = null;

  const value = (digits: string): number => {
    if (digits.includes('.')) return Number(digits);
    const negative = digits.startsWith('-');
    let body = digits.replace(/^[+-]/, '');
    if (trailingZerosOmitted) body = body.padEnd(integerDigits + decimals, '0');
    const n = Number(body) / 10 ** decimals;
    return negative ? -n : n;
  };

  for (const raw of text.split('*')) {
    if (flashes.length >= MAX_FLASHES) break;
    const command = raw.replace(/[\r\n\s%]/g, '');
    if (!command) continue;
    const format = /^FS([LTD]?)[AI]X(\d)(\d)Y\d\d/.exec(command);
    if (format) {
      trailingZerosOmitted = format[1] === 'T';
      integerDigits = Number(format[2]);
      decimals = Number(format[3]);
      continue;
    }
    if (command === 'G36') {
      region = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
      continue;
    }
    if (command === 'G37') {
      // Small regions only: a copper pour is no pad.
      if (region && region.maxX - region.minX <= 10 && region.maxY - region.minY <= 10) flashes.push([(region.minX + region.maxX) / 2, (region.minY + region.maxY) / 2]);
      region = null;
      continue;
    }
    if (command.startsWith('MOIN') || command === 'G70') mmPerUnit = 25.4;
    else if (command.startsWith('MOMM') || command === 'G71') mmPerUnit = 1;
    const move = /^(?:G0?[123])?(?:X([+-]?[\d.]+))?(?:Y([+-]?[\d.]+))?(?:I[+-]?[\d.]+)?(?:J[+-]?[\d.]+)?D0?([123])$/.exec(command);
    if (!move) continue;
    if (move[1] !== undefined) x = value(move[1]) * mmPerUnit;
    if (move[2] !== undefined) y = value(move[2]) * mmPerUnit;
    if (region && Number.isFinite(x) && Number.isFinite(y)) {
      region.minX = Math.min(region.minX, x);
      region.maxX = Math.max(region.maxX, x);
      region.minY = Math.min(region.minY, y);
      region.maxY = Math.max(region.maxY, y);
    } else if (move[3] === '3' && Number.isFinite(x) && Number.isFinite(y)) flashes.push([x, y]);
  }
  return flashes;
}
