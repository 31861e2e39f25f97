import { describe, expect, it } from 'vitest';
import { BOARD_ERROR_KEYS, BOARD_STATUSES, BOM_COLUMNS, BOM_ERROR_KEYS, BOM_EXPORT_FORMATS, EDA_TOOLS, PLACEMENT_ERROR_KEYS } from '../../src/lib/contract/eda.ts';
import { boardErrorText, bomErrorText, FILE_NAMING_BOARD_ERRORS } from '../../src/lib/board-errors.ts';
import { getT, LOCALES } from '../../src/lib/i18n.ts';

const LAYER_TYPES = ['copper', 'soldermask', 'silkscreen', 'solderpaste', 'drill', 'outline', 'drawing'];
const LAYER_SIDES = ['top', 'bottom', 'inner', 'all'];

/** Every key the electronics pages build from a contract value: `eda.boardErrors.<key>` and the like. */
const keys = [
  ...BOARD_ERROR_KEYS.map((key) => `eda.boardErrors.${key}`),
  ...BOM_ERROR_KEYS.map((key) => `eda.bomErrors.${key}`),
  ...PLACEMENT_ERROR_KEYS.map((key) => `eda.placementErrors.${key}`),
  ...BOARD_STATUSES.filter((status) => status !== 'ready').map((status) => `eda.status.${status}`),
  ...EDA_TOOLS.map((tool) => `eda.tools.${tool}`),
  ...BOM_COLUMNS.map((column) => `eda.columns.${column}`),
  ...BOM_EXPORT_FORMATS.map((format) => `eda.exportFormats.${format}`),
  ...LAYER_TYPES.map((type) => `eda.layerTypes.${type}`),
  ...LAYER_SIDES.map((side) => `eda.layerSides.${side}`),
];

describe('the electronics messages', () => {
  it.each(LOCALES)('word every board error, BOM error, status, tool, column, export and layer in %s', (locale) => {
    const t = getT(locale);
    expect(keys.filter((key) => t(key) === key)).toEqual([]);
  });

  it.each(LOCALES)('word every board error without a blank where no file is known, in %s', (locale) => {
    const t = getT(locale);
    // the errors that name a file are exactly those whose message has {{file}}
    const naming = BOARD_ERROR_KEYS.filter((key) => (t(`eda.boardErrors.${key}`, { file: '{{file}}' }) as string).includes('{{file}}'));
    expect(naming.sort()).toEqual([...FILE_NAMING_BOARD_ERRORS].sort());
    for (const key of BOARD_ERROR_KEYS) {
      for (const file of [undefined, null, '', '  ']) {
        const text = boardErrorText(t, key, file);
        expect({ key, blank: /\{\{|eda\.|\s{2}|\s[：:]/.test(text) }).toEqual({ key, blank: false });
        // never the named wording with a hole where the name goes
        if (FILE_NAMING_BOARD_ERRORS.has(key)) expect(text).not.toBe(t(`eda.boardErrors.${key}`, { file: '' }));
      }
      if (FILE_NAMING_BOARD_ERRORS.has(key)) expect(boardErrorText(t, key, 'gerbers.zip')).toContain('gerbers.zip');
    }
    expect(boardErrorText(t, undefined, null)).toBe(t('eda.boardErrors.render_failed'));
  });

  it('name the file at fault where the board error has one', () => {
    const t = getT('zh-CN');
    expect(t('eda.boardErrors.not_gerber', { file: 'notes.txt' })).toContain('notes.txt');
    expect(getT('en-US')('eda.bomErrors.no_columns', { columns: 'Part, Qty' })).toContain('Part, Qty');
    for (const locale of LOCALES) {
      for (const key of PLACEMENT_ERROR_KEYS) expect(getT(locale)(`eda.placementErrors.${key}`, { file: 'board.mnb' })).toContain('board.mnb');
    }
  });

  it.each(LOCALES)('say what was wrong with a BOM, listing the columns found, or that it has no header row, in %s', (locale) => {
    const t = getT(locale);
    expect(bomErrorText(t, 'no_columns', ['Part', ' Qty '])).toContain('Part, Qty');
    const headless = bomErrorText(t, 'no_columns', ['', ' ']);
    expect(headless).toBe(t('eda.bomNoHeader'));
    expect(headless).not.toMatch(/[:：]\s*[.。]/);
    expect(bomErrorText(t, 'too_large', undefined)).toContain('5 MB');
  });
});
