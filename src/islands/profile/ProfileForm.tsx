import { useStore } from '@nanostores/react';
import { useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/contract/errors.ts';
import { noticeText } from '../../lib/notice.ts';
import { BIO_MAX, CUSTOM_URL_MAX, LOCATION_MAX, NICKNAME_MAX, WEBSITE_MAX } from '../../lib/profile-rules.ts';
import type { ProfileField, ProfileStore } from '../../stores/profile.ts';
import { useEarlyInput } from '../shared/use-early-input.ts';
import { useHydrated } from '../use-hydrated.ts';

/** The profile fields with their inline errors, and "Save changes". */
export function ProfileForm({ profile, origin }: { profile: ProfileStore; origin: string }) {
  const { t } = useTranslation();
  const { fields, errors, formError, saving } = useStore(profile.$profile);
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  // What a member typed while the code was on its way becomes the form's value as it hydrates.
  const early = (name: ProfileField) => (value: string) => profile.setField(name, value);
  const refs = {
    nickname: useEarlyInput<HTMLInputElement>(fields.nickname, early('nickname')),
    url: useEarlyInput<HTMLInputElement>(fields.url, early('url')),
    bio: useEarlyInput<HTMLTextAreaElement>(fields.bio, early('bio')),
    location: useEarlyInput<HTMLInputElement>(fields.location, early('location')),
    website: useEarlyInput<HTMLInputElement>(fields.website, early('website')),
  };

  const focusField = (name: string | null) => {
    if (name) form.current?.querySelector<HTMLElement>(`[name="${name}"]`)?.focus();
  };
  const describedBy = (name: ProfileField, hint: boolean) => [hint ? id(`${name}-hint`) : '', errors[name] ? id(`${name}-error`) : ''].filter(Boolean).join(' ') || undefined;
  const input = <N extends ProfileField>(name: N) => ({
    ref: refs[name],
    id: id(name),
    name,
    value: fields[name],
    onChange: (event: { target: { value: string } }) => profile.setField(name, event.target.value),
    'aria-invalid': errors[name] ? true : undefined,
  });
  const errorOf = (name: ProfileField): ReactNode =>
    errors[name] ? (
      <p className="field-error" id={id(`${name}-error`)}>
        {fieldMessage(errors[name], t)}
      </p>
    ) : null;

  return (
    <form
      ref={form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void profile.save().then(focusField);
      }}
      aria-label={t('profile.editTitle')}
    >
      <fieldset className="form-stack" style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <div className="form-error" role="alert" hidden={!formError}>
          {formError ? noticeText(formError, t) : ''}
        </div>
        <div className="field">
          <label htmlFor={id('nickname')}>{t('profile.nickname')}</label>
          <input {...input('nickname')} maxLength={NICKNAME_MAX} required autoComplete="nickname" aria-describedby={describedBy('nickname', false)} />
          {errorOf('nickname')}
        </div>
        <div className="field">
          <label htmlFor={id('url')}>{t('profile.url')}</label>
          <div className="input-group">
            <span className="input-prefix" aria-hidden="true">
              {origin.replace(/^https?:\/\//, '')}/user/
            </span>
            <input {...input('url')} maxLength={CUSTOM_URL_MAX} required autoCapitalize="none" spellCheck={false} aria-describedby={describedBy('url', true)} />
          </div>
          <p className="field-hint" id={id('url-hint')}>
            {t('profile.urlHint')}
          </p>
          {errorOf('url')}
        </div>
        <div className="field">
          <label htmlFor={id('bio')}>{t('profile.bio')}</label>
          <textarea {...input('bio')} maxLength={BIO_MAX} rows={4} aria-describedby={describedBy('bio', true)} />
          <p className="field-hint" id={id('bio-hint')}>
            {t('profile.bioCount', { used: fields.bio.length, max: BIO_MAX })}
          </p>
          {errorOf('bio')}
        </div>
        <div className="field">
          <label htmlFor={id('location')}>{t('profile.location')}</label>
          <input {...input('location')} maxLength={LOCATION_MAX} autoComplete="address-level2" aria-describedby={describedBy('location', false)} />
          {errorOf('location')}
        </div>
        <div className="field">
          <label htmlFor={id('website')}>{t('profile.website')}</label>
          <input {...input('website')} type="url" inputMode="url" maxLength={WEBSITE_MAX} autoComplete="url" placeholder="https://" aria-describedby={describedBy('website', true)} />
          <p className="field-hint" id={id('website-hint')}>
            {t('profile.websiteHint')}
          </p>
          {errorOf('website')}
        </div>
        <div className="form-actions">
          {/* Live once hydrated: pressed before, the browser would send the form itself. A
              disabled default button also stops Enter from sending it. */}
          <button type="submit" className={`btn btn-primary${saving ? ' is-busy' : ''}`} disabled={saving || !hydrated}>
            {saving ? t('profile.saving') : t('profile.save')}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
