import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkOutcome, checkOutcomeText, checkTypeName, sourceErrorText } from '../../../src/lib/design-source.ts';
import { SOURCE_ERROR_KEYS, SOURCE_STAGES } from '../../../src/lib/contract/eda.ts';
import { getT, LOCALES } from '../../../src/lib/i18n.ts';
import { groupCheckItems } from '../../../src/stores/eda-checks.ts';
import { $edaFocus, focusAttribute, parseFocusAttribute, takeFocus, watchFocusLinks } from '../../../src/stores/eda-focus.ts';
import type { CheckItem } from '../../../src/lib/contract/schemas/eda.ts';

const item = (type: string, severity: CheckItem['severity'], at: [number, number] | null = null, sheet: number | null = null): CheckItem => ({
  type,
  severity,
  description: `KiCad says ${type}`,
  xMm: at?.[0] ?? null,
  yMm: at?.[1] ?? null,
  sheet,
  refs: [],
});

describe('design check items', () => {
  const items = [
    item('silk_overlap', 'warning', [5, 5]),
    item('clearance', 'warning', [30, 2]),
    item('silk_overlap', 'warning', [1, 1]),
    item('clearance', 'error', [10, 40]),
    item('silk_overlap', 'warning', [2, 9]),
    item('odd_new_check', 'warning'),
  ];

  it('are grouped by kind: kinds with errors first, then the most frequent; errors first inside, then from the top', () => {
    const groups = groupCheckItems(items);
    expect(groups.map((group) => [group.type, group.severity, group.count])).toEqual([
      ['clearance', 'error', 2],
      ['silk_overlap', 'warning', 3],
      ['odd_new_check', 'warning', 1],
    ]);
    expect(groups[0]!.items.map((member) => member.severity)).toEqual(['error', 'warning']);
    expect(groups[1]!.items.map((member) => member.yMm)).toEqual([1, 5, 9]);
    expect(groups[2]!.description).toBe('KiCad says odd_new_check');
  });

  it('list at most so many of a kind, counting them all', () => {
    const many = Array.from({ length: 120 }, (_, index) => item('endpoint_off_grid', 'warning', [index, index], 1));
    const [group] = groupCheckItems(many, 50);
    expect(group).toMatchObject({ count: 120 });
    expect(group!.items).toHaveLength(50);
  });

  it.each(LOCALES)('are named in %s, with KiCad’s own words for a kind the site does not know', (locale) => {
    const t = getT(locale);
    expect(checkTypeName(t, 'clearance', 'Clearance violation (netclass)')).not.toBe('Clearance violation (netclass)');
    expect(checkTypeName(t, 'odd_new_check', 'A new kind of check')).toBe('A new kind of check');
    expect(checkTypeName(t, 'not.a.key', 'As KiCad says')).toBe('As KiCad says');
  });
});

describe('a check’s outcome', () => {
  it.each(LOCALES)('is not run, passed or counted, in %s', (locale) => {
    const t = getT(locale);
    expect(checkOutcome(null)).toEqual({ kind: 'not-run' });
    expect(checkOutcome({ errors: 0, warnings: 0 })).toEqual({ kind: 'passed' });
    const found = checkOutcomeText(t, checkOutcome({ errors: 0, warnings: 3 }));
    expect(found).toMatch(/0/);
    expect(found).toMatch(/3/);
    expect(checkOutcomeText(t, { kind: 'passed' })).toBe(t('checks.passedShort'));
  });

  it('reads “0 errors, 3 warnings” and “1 error, 1 warning” in English', () => {
    const t = getT('en-US');
    expect(checkOutcomeText(t, checkOutcome({ errors: 0, warnings: 3 }))).toBe('0 errors, 3 warnings');
    expect(checkOutcomeText(t, checkOutcome({ errors: 1, warnings: 1 }))).toBe('1 error, 1 warning');
  });
});

describe('why a design source failed', () => {
  it.each(LOCALES)('is worded for every error key and stage in %s', (locale) => {
    const t = getT(locale);
    for (const key of SOURCE_ERROR_KEYS) {
      const text = sourceErrorText(t, key, '8');
      expect({ key, text }).toEqual({ key, text: expect.not.stringMatching(/\{\{|eda\./) });
    }
    for (const stage of SOURCE_STAGES) expect(t(`eda.sourceStages.${stage}`)).not.toBe(`eda.sourceStages.${stage}`);
  });

  it('names the KiCad that made the files when they are too new, and does without when it is not known', () => {
    expect(sourceErrorText(getT('en-US'), 'too_new', '10')).toMatch(/^Made with KiCad 10; this site reads up to KiCad 9/);
    expect(sourceErrorText(getT('zh-CN'), 'too_new', '10')).toContain('KiCad 10');
    expect(sourceErrorText(getT('en-US'), 'too_new', null)).not.toMatch(/KiCad\s*;|KiCad  /);
    expect(sourceErrorText(getT('en-US'), undefined, null)).toBe(getT('en-US')('eda.sourceErrors.render_failed'));
  });
});

describe('a design check’s place', () => {
  beforeEach(() => $edaFocus.set(null));
  afterEach(() => vi.unstubAllGlobals());

  it('is written on its link and read back', () => {
    expect(focusAttribute({ on: 'board', xMm: 12.34567, yMm: 5 })).toBe('board:12.346,5');
    expect(parseFocusAttribute('board:12.346,5')).toEqual({ on: 'board', xMm: 12.346, yMm: 5 });
    expect(parseFocusAttribute(focusAttribute({ on: 'sheet', page: 3, xMm: 100, yMm: 50.5 }))).toEqual({ on: 'sheet', page: 3, xMm: 100, yMm: 50.5 });
    for (const bad of ['', 'board:', 'sheet:0:1,2', 'sheet:1,2', 'plane:1,2', 'board:a,b', null]) expect(parseFocusAttribute(bad)).toBeNull();
  });

  it('is taken once, by the viewer of its kind', () => {
    $edaFocus.set({ on: 'sheet', page: 2, xMm: 1, yMm: 2 });
    expect(takeFocus('board')).toBeNull();
    expect(takeFocus('sheet')).toEqual({ on: 'sheet', page: 2, xMm: 1, yMm: 2 });
    expect(takeFocus('sheet')).toBeNull();
  });

  it('is set by a click on a check’s link, while some viewer watches', () => {
    const listeners = new Set<(event: MouseEvent) => void>();
    vi.stubGlobal('document', { addEventListener: (_: string, listener: (event: MouseEvent) => void) => listeners.add(listener), removeEventListener: (_: string, listener: (event: MouseEvent) => void) => listeners.delete(listener) });
    const stopA = watchFocusLinks();
    const stopB = watchFocusLinks();
    expect(listeners.size).toBe(1);
    let prevented = false;
    const link = { getAttribute: () => 'sheet:2:10,20' };
    const click = { button: 0, defaultPrevented: false, target: { closest: () => link }, preventDefault: () => (prevented = true) } as unknown as MouseEvent;
    for (const listener of listeners) listener(click);
    expect(prevented).toBe(true);
    expect($edaFocus.get()).toEqual({ on: 'sheet', page: 2, xMm: 10, yMm: 20 });
    stopA();
    expect(listeners.size).toBe(1);
    stopB();
    expect(listeners.size).toBe(0);
  });
});
