/**
 * A board's facts and its fabs' verdicts as the electronics page words them: lengths in mm and
 * inches, unknown facts said to be unknown, and each fact that rules a fab out in one sentence.
 */
import type { BoardFacts } from './contract/schemas/eda.ts';
import type { FabCheckResult, FabFit } from './fab-fit.ts';
import type { Translate } from './i18n.ts';

const MM_PER_INCH = 25.4;

/** At most `digits` decimals, no trailing zeros: 0.1524 → "0.152", 1.6 → "1.6". */
const trim = (value: number, digits: number) => String(Number(value.toFixed(digits)));

/** A length in mm and inches: `0.152 mm (0.006 in)`. */
export function lengthText(mm: number, t: Translate): string {
  return t('eda.facts.lengthValue', { mm: trim(mm, 3), inches: trim(mm / MM_PER_INCH, 4) });
}

export interface FactRow {
  key: string;
  label: string;
  value: string;
  /** The files do not tell it. */
  unknown: boolean;
}

/** The rows of the "Board facts" list after size and layers (which the page shows for every board). */
export function factRows(facts: BoardFacts, t: Translate): FactRow[] {
  const unknown = t('eda.facts.unknown');
  const row = (key: string, value: string | null): FactRow => ({ key, label: t(`eda.facts.${key}`), value: value ?? unknown, unknown: value === null });
  const length = (mm: number | null) => (mm === null ? null : lengthText(mm, t));
  const area = facts.areaCm2 === null ? null : t('eda.facts.areaValue', { cm2: trim(facts.areaCm2, 2), in2: trim(facts.areaCm2 / (2.54 * 2.54), 2) });

  let holes: string | null = null;
  if (facts.holes !== null) {
    const parts = [t('eda.facts.holesValue', { count: facts.holes })];
    if (facts.platedHoles !== null && facts.nonPlatedHoles !== null) parts.push(t('eda.facts.platingValue', { plated: facts.platedHoles, nonPlated: facts.nonPlatedHoles }));
    else parts.push(t('eda.facts.platingUnknown'));
    parts.push(facts.vias === null ? t('eda.facts.viasUnknown') : t('eda.facts.viasValue', { count: facts.vias }));
    holes = parts.join(t('eda.facts.separator'));
  }
  const parts =
    facts.partsTop === null || facts.partsBottom === null
      ? null
      : [t('eda.facts.partsTop', { count: facts.partsTop }), t('eda.facts.partsBottom', { count: facts.partsBottom })].join(t('eda.facts.separator'));

  return [
    row('area', area),
    row('thickness', length(facts.thicknessMm)),
    row('minTrace', length(facts.minTraceMm)),
    row('minDrill', length(facts.minDrillMm)),
    row('holes', holes),
    row('minAnnularRing', length(facts.minAnnularRingMm)),
    row('parts', parts),
  ];
}

function limitText(check: FabCheckResult, t: Translate): string {
  const { limit } = check;
  if (limit === null) return '';
  if (check.check === 'size' && Array.isArray(limit)) return t('eda.fabs.sizeValue', { width: limit[0], height: limit[1] });
  if (check.check === 'thickness' && Array.isArray(limit)) return limit.map((mm) => trim(mm, 2)).join(' / ') + ' mm';
  if (Array.isArray(limit)) return limit.join(', ');
  return lengthText(limit, t);
}

function valueText(check: FabCheckResult, t: Translate): string {
  const { value } = check;
  if (value === null) return '';
  if (Array.isArray(value)) return t('eda.fabs.sizeValue', { width: trim(value[0], 1), height: trim(value[1], 1) });
  if (check.check === 'copperLayers') return String(value);
  return lengthText(value, t);
}

/**
 * What to say about each check that is not passed: the fact that rules the fab out ("Smallest
 * drill 0.15 mm < JLCPCB's 0.3 mm"), a fact the files do not tell, or a limit the fab does not state.
 */
export function fitReasons(fit: FabFit, t: Translate): string[] {
  const reasons: string[] = [];
  for (const check of fit.checks) {
    if (check.outcome === 'fails') {
      reasons.push(t(`eda.fabs.fails.${check.check}`, { value: valueText(check, t), limit: limitText(check, t), fab: fit.fab.name }));
    } else if (check.outcome === 'atOrder') {
      reasons.push(t('eda.fabs.atOrder', { limit: limitText(check, t), fab: fit.fab.name }));
    } else if (check.outcome === 'unknown') {
      const fact = t(`eda.fabs.fact.${check.check}`);
      reasons.push(check.value === null ? t('eda.fabs.unknownFact', { fact }) : t('eda.fabs.unstatedLimit', { fact, fab: fit.fab.name }));
    }
  }
  return reasons;
}
