import { KICAD_READS_UP_TO, type SourceErrorKey } from './contract/eda.ts';
import type { Translate } from './i18n.ts';
import type { CheckResult } from './contract/schemas/eda.ts';

/** How a check came out: not run, passed (nothing found), or found errors and warnings. */
export type CheckOutcome = { kind: 'not-run' } | { kind: 'passed' } | { kind: 'found'; errors: number; warnings: number };

/** The outcome of a check's result (null: not run). */
export function checkOutcome(result: Pick<CheckResult, 'errors' | 'warnings'> | null | undefined): CheckOutcome {
  if (!result) return { kind: 'not-run' };
  if (result.errors === 0 && result.warnings === 0) return { kind: 'passed' };
  return { kind: 'found', errors: result.errors, warnings: result.warnings };
}

/**
 * Why a KiCad design source could not be read, in the reader's language: `too_new` names the
 * KiCad that saved the files when it is known ("Made with KiCad 10; this site reads up to KiCad 9").
 */
export function sourceErrorText(t: Translate, key: SourceErrorKey | undefined, kicadVersion: string | null | undefined): string {
  const reason = key ?? 'render_failed';
  const version = kicadVersion?.trim();
  if (reason === 'too_new' && !version) return t('eda.sourceErrorsUnnamed.too_new', { supported: KICAD_READS_UP_TO });
  return t(`eda.sourceErrors.${reason}`, { version, supported: KICAD_READS_UP_TO });
}

/** A KiCad check type's name in the reader's language, or KiCad's own description of it when it has none. */
export function checkTypeName(t: Translate, type: string, description: string): string {
  if (!/^[a-z0-9_]+$/.test(type)) return description;
  const key = `checks.types.${type}`;
  const name = t(key);
  return name === key ? description : name;
}

/** "2 errors, 1 warning", "passed" or "not run": one check's outcome in a few words. */
export function checkOutcomeText(t: Translate, outcome: CheckOutcome): string {
  if (outcome.kind === 'not-run') return t('checks.notRunShort');
  if (outcome.kind === 'passed') return t('checks.passedShort');
  const errors = t('checks.errors', { count: outcome.errors });
  const warnings = t('checks.warnings', { count: outcome.warnings });
  return t('checks.counts', { errors, warnings });
}

/** A position in mm as the checks show it: one decimal, in the reader's number format. */
export function formatMm(mm: number, locale: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(mm);
}
