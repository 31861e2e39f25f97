/**
 * Whether the start of a text file is a Gerber (RS-274X, Gerber X2) or Excellon drill file: what
 * uploads and attachments are classified by when their name says nothing (a `.g3` inner layer, a
 * `.art` or `.pho` from an older tool). Only the opening is judged, so a few kilobytes suffice.
 */

/**
 * Statements a Gerber file opens with. X2 writers (KiCad 6+, Altium, Allegro) start with an
 * attribute (`%TF.GenerationSoftware…*%`, `%TA.…`, `%TO.…`, `%TD*%`); older ones with a comment
 * (`G04 …*`), a mode (`G75*`, `G70*`, `G90`, `G01X…`), or an extended command (`%FS…*%`, `%MO…*%`,
 * `%IN…*%`, `%LPD*%`, `%ICAS*%`, an aperture `%ADD10…*%`).
 */
const GERBER_OPENING =
  /^(?:%(?:T[FAOD]|FS|MO|AD|AM|AB|LP|LM|LR|LS|SR|IN|IP|IR|IJ|IO|IC|LN|AS|MI|OF|SF|KO)[^%\n]{0,4000}\*%|G0?4\b|G(?:0?[123]|36|37|54|55|70|71|74|75|90|91)(?!\d))/;
/** A format statement or a unit mode among the first lines: a file that opens with a long comment block. */
const GERBER_HEADER = /%FS[LTD]?[AI]X\d\d?Y\d\d?\*%|%MO(?:MM|IN)\*%/;
/** Excellon: `M48` first, possibly below comment lines (`; DRILL file {KiCad …}`). */
const EXCELLON_OPENING = /^(?:;[^\n]*\n\s*)*M48\b/;

/** Extensions of Gerber layers and Excellon drill files, as CAD tools name them. */
export const GERBER_EXTENSIONS: ReadonlySet<string> = new Set([
  'gbr', 'ger', 'gtl', 'gbl', 'gto', 'gbo', 'gts', 'gbs', 'gtp', 'gbp', 'gko', 'gm1', 'gml', 'gm', 'g1', 'g2', 'gd1', 'gg1',
  'drl', 'xln', 'cmp', 'sol', 'stc', 'sts', 'plc', 'pls', 'oln',
]);
/** The first kilobytes of a text file read as a Gerber layer. */
export function looksLikeGerberText(text: string): boolean {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  return GERBER_OPENING.test(start) || GERBER_HEADER.test(start.slice(0, 4096));
}

/** The first kilobytes of a text file read as an Excellon drill file. */
export function looksLikeExcellonText(text: string): boolean {
  return EXCELLON_OPENING.test(text.replace(/^\uFEFF/, '').trimStart());
}
