import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_MAX } from '../../lib/contract/project-limits.ts';
import type { ProjectFormStore } from '../../stores/project-form.ts';
import { MarkdownEditor } from '../shared/MarkdownEditor.tsx';
import type { FieldIds } from './field-ids.ts';

/** The project's Markdown description; dropped files that are not pictures become attachments. */
export function DescriptionField({ form, ids }: { form: ProjectFormStore; ids: FieldIds }) {
  const { t } = useTranslation();
  const { fields, errors } = useStore(form.$form);

  return (
    <section className="card form-section" aria-labelledby={ids('description-heading')}>
      <h2 id={ids('description-heading')}>{t('form.description')}</h2>
      <MarkdownEditor
        id={ids('description')}
        value={fields.description}
        onChange={(value) => form.setField('description', value)}
        uploadImages={form.uploadImages}
        onOtherFiles={form.addAttachments}
        maxLength={DESCRIPTION_MAX}
        rows={18}
        error={errors.description}
        words={{
          label: t('form.markdown'),
          tabs: t('form.description'),
          placeholder: t('form.descriptionPlaceholder'),
          hint: t('form.descriptionHint'),
          preview: t('form.livePreview'),
          previewEmpty: t('form.previewEmpty'),
        }}
        testIds={{ preview: 'live-preview' }}
      />
    </section>
  );
}
