import { useStore } from '@nanostores/react';
import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SUMMARY_MAX, TITLE_MAX } from '../lib/contract/project-limits.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { LICENCES } from '../lib/licences.ts';
import type { AuthState } from '../stores/auth.ts';
import { createProjectForm, type FieldName, type FormTag, type ProjectFormSource } from '../stores/project-form.ts';
import { I18nProvider } from './i18n.tsx';
import { AttachmentsField } from './project-form/AttachmentsField.tsx';
import { useEarlyInput } from './shared/use-early-input.ts';
import { CoverField } from './project-form/CoverField.tsx';
import { DescriptionField } from './project-form/DescriptionField.tsx';
import { describedBy } from './project-form/field-ids.ts';
import { FormActions } from './project-form/FormActions.tsx';
import { TagPicker } from './project-form/TagPicker.tsx';
import { VersionField } from './project-form/VersionField.tsx';
import { FieldError } from './shared/FieldError.tsx';
import { useAuth } from './use-auth.ts';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';

// cropperjs runs only in the browser: the cropper is loaded when a cover is chosen.
const ImageCropper = lazy(() => import('./ImageCropper.tsx'));

export interface ProjectFormProps {
  locale: string;
  messages: IslandMessages;
  auth: AuthState | null;
  source: ProjectFormSource;
  tags: FormTag[];
  /** Names of the content's tags outside the tree (members' tags), by slug. */
  tagNames: Record<string, string>;
  /** `/create/success` in the page's variant. */
  successPath: string;
  /** `/create/project` in the page's variant (the URL is updated once a new draft exists). */
  formPath: string;
  /** The member's Videos tab, where a video dropped among the design files belongs. */
  videosPath?: string | undefined;
}

/**
 * The project creation and edit form: title, summary, cropped cover, Markdown description with
 * live preview and pasted/dropped images, tags, licence and attachments with upload progress;
 * save draft, preview, publish. Everything typed is kept in localStorage until the server has
 * it, and leaving with unsaved changes asks first (see `createProjectForm`).
 */
export default function ProjectForm({ messages, ...props }: ProjectFormProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Form {...props} />
    </I18nProvider>
  );
}

function Form({ locale, auth, source, tags, tagNames, successPath, formPath, videosPath }: Omit<ProjectFormProps, 'messages'>) {
  const { t } = useTranslation();
  useAuth(auth);
  const form = useIslandStore(() => createProjectForm({ source, locale, successPath, formPath, t }));
  const { fields, errors, busy, restored, cropSource } = useStore(form.$form);
  // Typed before the form's code arrived (a slow connection): kept as the fields' text.
  const titleField = useEarlyInput<HTMLInputElement>(fields.title, (value) => form.setField('title', value));
  const summaryField = useEarlyInput<HTMLTextAreaElement>(fields.summary, (value) => form.setField('summary', value));
  const hydrated = useHydrated();
  const formId = useId();
  const ids = (name: string) => `${formId}-${name}`;
  const focusField = (name: FieldName | null) => {
    if (name) document.getElementById(ids(name))?.focus();
  };

  return (
    <form
      className="project-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.publish().then(focusField);
      }}
      aria-busy={busy !== null}
    >
      {/* Text typed before the code arrives is kept (useEarlyInput); the controls that would
          lose a choice or a press before then (files, menus, buttons) are live once hydrated. */}
      <fieldset className="form-fieldset">
        {restored && (
          <div className="form-notice" role="status">
            <p>{t('form.restored', { time: new Date(restored).toLocaleString(locale) })}</p>
            <button type="button" className="btn" onClick={form.discardRestored}>
              {t('form.discardRestored')}
            </button>
          </div>
        )}
        {form.projectId && <p className="form-notice muted">{t('form.editingNotice')}</p>}

        <section className="card form-section" aria-labelledby={ids('basics')}>
          <h2 id={ids('basics')}>{t('form.basics')}</h2>
          <div className="field">
            <label htmlFor={ids('title')}>
              {t('form.title')} <span className="required-mark">{t('form.required')}</span>
            </label>
            <input
              ref={titleField}
              id={ids('title')}
              value={fields.title}
              maxLength={TITLE_MAX}
              onChange={(event) => form.setField('title', event.target.value)}
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={describedBy(ids, errors, 'title')}
              placeholder={t('form.titlePlaceholder')}
              autoComplete="off"
            />
            <p className="hint" id={ids('title-hint')}>
              {t('form.counter', { used: fields.title.length, max: TITLE_MAX })}
            </p>
            <FieldError id={ids('title')} notice={errors.title} />
          </div>
          <div className="field">
            <label htmlFor={ids('summary')}>{t('form.summary')}</label>
            <textarea
              ref={summaryField}
              id={ids('summary')}
              rows={2}
              value={fields.summary}
              maxLength={SUMMARY_MAX}
              onChange={(event) => form.setField('summary', event.target.value)}
              aria-invalid={errors.summary ? true : undefined}
              aria-describedby={describedBy(ids, errors, 'summary')}
              placeholder={t('form.summaryPlaceholder')}
            />
            <p className="hint" id={ids('summary-hint')}>
              {t('form.summaryHint')} {t('form.counter', { used: fields.summary.length, max: SUMMARY_MAX })}
            </p>
            <FieldError id={ids('summary')} notice={errors.summary} />
          </div>
          <CoverField form={form} ids={ids} />
        </section>

        <DescriptionField form={form} ids={ids} />

        <section className="card form-section" aria-labelledby={ids('details')}>
          <h2 id={ids('details')}>{t('form.details')}</h2>
          <TagPicker id={ids('tags')} tree={tags} names={tagNames} value={fields.tags} onChange={(value) => form.setField('tags', value)} error={errors.tags} />
          <div className="field">
            <label htmlFor={ids('licence')}>
              {t('form.licence')} <span className="required-mark">{t('form.required')}</span>
            </label>
            <select
              id={ids('licence')}
              value={fields.licence}
              disabled={!hydrated}
              onChange={(event) => form.setField('licence', event.target.value)}
              aria-invalid={errors.licence ? true : undefined}
              aria-describedby={describedBy(ids, errors, 'licence')}
            >
              <option value="">{t('form.chooseLicence')}</option>
              {LICENCES.map((licence) => (
                <option key={licence.id} value={licence.id}>
                  {licence.id} — {licence.name}
                </option>
              ))}
            </select>
            <p className="hint" id={ids('licence-hint')}>
              {t('form.licenceHint')}
            </p>
            <FieldError id={ids('licence')} notice={errors.licence} />
          </div>
        </section>

        <AttachmentsField form={form} ids={ids} locale={locale} videosPath={videosPath} />
        <VersionField form={form} ids={ids} />
        <FormActions form={form} focusField={focusField} />
      </fieldset>
      {cropSource && (
        <Suspense fallback={null}>
          <ImageCropper
            src={cropSource}
            aspectRatio={4 / 3}
            outputType="jpeg"
            outputQuality={0.92}
            onCrop={(blob) => void form.uploadCover(blob)}
            onCancel={form.cancelCrop}
            onError={form.cropFailed}
          />
        </Suspense>
      )}
    </form>
  );
}
