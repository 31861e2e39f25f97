import { useStore } from '@nanostores/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PICTURE_TYPES } from '../../lib/pictures.ts';
import type { ProjectFormStore } from '../../stores/project-form.ts';
import { FieldError } from '../shared/FieldError.tsx';
import { describedBy, type FieldIds } from './field-ids.ts';
import { useHydrated } from '../use-hydrated.ts';

/** The cover: the current picture, upload (through the cropper, with progress) or remove it. */
export function CoverField({ form, ids }: { form: ProjectFormStore; ids: FieldIds }) {
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const { fields, errors, coverProgress } = useStore(form.$form);
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="field">
      <span className="label" id={ids('cover-label')}>
        {t('form.cover')}
      </span>
      <div className="cover-field">
        <div className="cover-box">
          {fields.cover ? <img src={fields.cover} alt={t('form.coverAlt')} width={320} height={240} /> : <span className="muted">{t('form.noCover')}</span>}
          {coverProgress !== null && (
            <div className="cover-progress">
              <progress max={1} value={coverProgress} aria-label={t('form.coverUploading')} />
            </div>
          )}
        </div>
        <div className="cover-actions">
          <button type="button" className="btn" id={ids('cover')} onClick={() => input.current?.click()} disabled={coverProgress !== null || !hydrated} aria-describedby={describedBy(ids, errors, 'cover')}>
            {fields.cover ? t('form.changeCover') : t('form.uploadCover')}
          </button>
          {fields.cover && (
            <button type="button" className="btn" onClick={() => form.setField('cover', null)} disabled={!hydrated}>
              {t('form.removeCover')}
            </button>
          )}
          <p className="hint" id={ids('cover-hint')}>
            {t('form.coverHint')}
          </p>
        </div>
        <input
          ref={input}
          type="file"
          accept={PICTURE_TYPES}
          hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            form.chooseCover(file);
          }}
          aria-labelledby={ids('cover-label')}
          data-testid="cover-input"
        />
      </div>
      <FieldError id={ids('cover')} notice={errors.cover} />
    </div>
  );
}
