import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeExcellonText, looksLikeGerberText } from '../../../src/server/electronics/gerber-text.ts';
import { BOARD_FIXTURES, BOARD_NAMES } from '../../helpers/board-fixtures.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/eda');
const head = (file: string) => readFileSync(file, 'latin1').slice(0, 2048);

describe('telling Gerber and drill files by their first bytes', () => {
  // every layer and drill file of the four real boards: KiCad 5 (G04 #@! TF.), KiCad 6 (%TF.), EAGLE (G04, G75), Altium (%FS, M48)
  const layerFiles = BOARD_NAMES.flatMap((board) =>
    readdirSync(path.join(BOARD_FIXTURES, board))
      .filter((name) => !name.endsWith('.gbrjob'))
      .map((name) => path.join(board, name)),
  );

  it.each(layerFiles)('%s', (file) => {
    const text = head(path.join(BOARD_FIXTURES, file));
    expect(looksLikeGerberText(text) || looksLikeExcellonText(text)).toBe(true);
  });

  it('knows the openings of Gerber X2 and of older writers', () => {
    for (const opening of [
      '%TF.GenerationSoftware,KiCad,Pcbnew,8.0.1*%\n%TF.FileFunction,Copper,L3,Inr*%',
      '%TA.AperFunction,Conductor*%\n%ADD10C,0.2*%',
      '%TO.C,R1*%\n',
      '%TD*%\n%FSLAX46Y46*%',
      'G75*\nG70*\n',
      '%INboard*%\n%FSLAX25Y25*%',
      '%LPD*%\nG01*',
      '%ICAS*%\n%MOIN*%',
      '\uFEFF  G04 Written by a tool with a byte-order mark*\n',
      'G04 long comment*\n'.repeat(40) + '%FSLAX25Y25*%\n%MOIN*%\n',
    ]) {
      expect({ opening, gerber: looksLikeGerberText(opening) }).toEqual({ opening, gerber: true });
    }
    expect(looksLikeExcellonText('; DRILL file {KiCad 8.0.1}\n; FORMAT={-:-/ absolute / metric / decimal}\nM48\n')).toBe(true);
  });

  it('is not fooled by BOMs, placement files or notes', () => {
    for (const file of ['bom/sanga-bom_jlc.csv', 'bom/SnapperGPS_1_0_0_BOM.csv', 'kicad-board.pos', 'eagle-board.mnt', 'jlc-cpl.csv', 'altium-pick-place.txt']) {
      const text = head(path.join(FIXTURES, file));
      expect({ file, gerber: looksLikeGerberText(text), drill: looksLikeExcellonText(text) }).toEqual({ file, gerber: false, drill: false });
    }
    for (const text of ['Gerbers for my board, see below.', '%PDF-1.7\n', 'Designator,Value\nR1,10k', 'G0 is a G-code move', '%TFA is no attribute']) {
      expect({ text, gerber: looksLikeGerberText(text) }).toEqual({ text, gerber: false });
    }
  });
});
