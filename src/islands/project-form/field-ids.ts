import type { FieldErrors, FieldName } from '../../stores/project-form.ts';

/** The ids of the form's fields: `${formId}-title`, `${formId}-title-hint`, `${formId}-title-error`… */
export type FieldIds = (name: string) => string;

/** `aria-describedby` of a field: its hint (when it has one) and its error (when shown). */
export function describedBy(ids: FieldIds, errors: FieldErrors, name: FieldName, hint = true): string | undefined {
  return [hint ? ids(`${name}-hint`) : '', errors[name] ? ids(`${name}-error`) : ''].filter(Boolean).join(' ') || undefined;
}
