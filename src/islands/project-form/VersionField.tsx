import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import { VERSION_NAME_MAX, VERSION_NOTES_MAX } from '../../lib/contract/project-limits.ts';
import type { ProjectFormStore } from '../../stores/project-form.ts';
import { FieldError } from '../shared/FieldError.tsx';
import { useEarlyInput } from '../shared/use-early-input.ts';
import { describedBy, type FieldIds } from './field-ids.ts';
import { useHydrated } from '../use-hydrated.ts';

/**
 * The version a publication releases: on a new project the name of version 1; on an edit of a
 * published project, "Release as a new version" with its name and notes (else the edit amends
 * the latest version's files, which the hint says).
 */
export function VersionField({ form, ids }: { form: ProjectFormStore; ids: FieldIds }) {
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const { version, errors } = useStore(form.$form);
  const editing = Boolean(form.projectId);
  const showFields = !editing || version.release;
  // A new project's version fields are in the server's page: what was typed there early is kept.
  const nameField = useEarlyInput<HTMLInputElement>(version.name, (name) => form.setVersion({ name }));
  const notesField = useEarlyInput<HTMLTextAreaElement>(version.notes, (notes) => form.setVersion({ notes }));
  return (
    <section className="card form-section" aria-labelledby={ids('version-title')}>
      <h2 id={ids('version-title')}>{editing ? t('form.version.release') : t('form.version.firstName')}</h2>
      {editing && (
        <div className="field field-check">
          <label>
            <input type="checkbox" checked={version.release} disabled={!hydrated} onChange={(event) => form.setVersion({ release: event.target.checked })} aria-describedby={ids('version-release-hint')} />{' '}
            {t('form.version.release')}
          </label>
          <p className="hint" id={ids('version-release-hint')}>
            {version.release ? t('form.version.releaseHint') : form.latestVersion ? t('form.version.amendHint', { name: form.latestVersion }) : t('form.version.amendHintGeneric')}
          </p>
        </div>
      )}
      {showFields && (
        <>
          <div className="field">
            <label htmlFor={ids('version')}>{editing ? t('form.version.name') : t('form.version.firstName')}</label>
            <input
              ref={nameField}
              id={ids('version')}
              value={version.name}
              maxLength={VERSION_NAME_MAX}
              placeholder={editing ? 'v1.1' : 'v1'}
              onChange={(event) => form.setVersion({ name: event.target.value })}
              aria-invalid={errors.version ? true : undefined}
              aria-describedby={describedBy(ids, errors, 'version', !editing)}
            />
            {!editing && (
              <p className="hint" id={ids('version-hint')}>
                {t('form.version.firstHint')}
              </p>
            )}
            <FieldError id={ids('version')} notice={errors.version} />
          </div>
          <div className="field">
            <label htmlFor={ids('version-notes')}>{t('form.version.notes')}</label>
            <textarea
              ref={notesField}
              id={ids('version-notes')}
              rows={3}
              value={version.notes}
              maxLength={VERSION_NOTES_MAX}
              placeholder={t('form.version.notesPlaceholder')}
              onChange={(event) => form.setVersion({ notes: event.target.value })}
            />
          </div>
        </>
      )}
    </section>
  );
}
