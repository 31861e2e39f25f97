import { lazy, Suspense, useEffect, useId, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { UserInfo } from '../lib/api-types.ts';
import { avatarSrc } from '../lib/avatar.ts';
import { userPath, variantPath, type Variant } from '../lib/paths.ts';
import {
  BIO_MAX,
  customUrlProblem,
  CUSTOM_URL_MAX,
  isWebsiteAllowed,
  LOCATION_MAX,
  nicknameProblem,
  NICKNAME_MAX,
  WEBSITE_MAX,
} from '../lib/profile-rules.ts';
import { setUserInfo } from '../stores/auth.ts';
import { I18nProvider } from './i18n.tsx';
import { useAuth } from './use-auth.ts';

// cropperjs only runs in the browser: the cropper is loaded when a picture is chosen.
const ImageCropper = lazy(() => import('./ImageCropper.tsx'));

/** What `POST /api/upload` answers. */
interface UploadResult {
  id: string;
  url: string;
}

export interface ProfileEditorProps {
  locale: string;
  token: string;
  /** The signed-in owner of the profile, as the page rendered it. */
  user: UserInfo;
  variant?: Variant;
  /** The site origin shown before the custom URL. */
  origin: string;
}

/** Accepted avatar files; the server checks the content again. */
const AVATAR_TYPES = 'image/jpeg,image/png,image/webp,image/gif';
const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

type Fields = { nickname: string; url: string; bio: string; location: string; website: string };
type FieldErrors = Partial<Record<keyof Fields | 'avatar', string>>;

/**
 * The owner's profile editor: avatar (upload + square crop), nickname, custom URL, bio, location
 * and website, with inline translated errors from the same rules the server applies.
 */
export default function ProfileEditor(props: ProfileEditorProps) {
  return (
    <I18nProvider locale={props.locale}>
      <Editor {...props} />
    </I18nProvider>
  );
}

function validate(fields: Fields): FieldErrors {
  const errors: FieldErrors = {};
  const nickname = nicknameProblem(fields.nickname);
  if (nickname) errors.nickname = nickname;
  const url = fields.url.trim().toLowerCase();
  const urlProblem = customUrlProblem(url);
  if (urlProblem) errors.url = urlProblem;
  if (fields.bio.trim().length > BIO_MAX) errors.bio = 'too_big';
  if (fields.location.trim().length > LOCATION_MAX) errors.location = 'too_big';
  if (fields.website.trim().length > WEBSITE_MAX) errors.website = 'too_big';
  else if (!isWebsiteAllowed(fields.website.trim())) errors.website = 'website_protocol';
  return errors;
}

/** The message key of a failed avatar change. */
function avatarErrorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'errors.internal';
  const field = error.fields?.avatar ?? error.fields?.file;
  return field ? `validation.${field}` : `errors.${error.errorKey}`;
}

/** Updates server-rendered copies of the avatar on the page (the profile banner). */
function showAvatarOnPage(src: string): void {
  for (const image of document.querySelectorAll<HTMLImageElement>('[data-profile-avatar]')) image.src = src;
}

function Editor({ token, user: initialUser, variant = 'desktop', origin, locale }: ProfileEditorProps) {
  const { t } = useTranslation();
  const { userInfo } = useAuth({ token, userInfo: initialUser });
  const user = userInfo ?? initialUser;
  const [fields, setFields] = useState<Fields>({
    nickname: initialUser.nickname,
    url: initialUser.url,
    bio: initialUser.bio,
    location: initialUser.location,
    website: initialUser.website,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState(false);
  const [cropSource, setCropSource] = useState<File | null>(null);
  const [avatarBusy, setAvatarBusy] = useState(false);
  const [avatarStatus, setAvatarStatus] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const ids = { base: useId() };
  const id = (name: string) => `${ids.base}-${name}`;

  const message = (key: string | undefined) => (key ? t(`validation.${key}`, { defaultValue: t('validation.invalid') }) : '');

  const onField = (name: keyof Fields) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = event.target.value;
    setFields((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const saveAvatar = async (avatar: string | null) => {
    const updated = await apiCall<UserInfo>('user/edit', { avatar });
    setUserInfo(updated);
    showAvatarOnPage(avatarSrc(updated.avatar, updated.nickname));
    return updated;
  };

  const onPickFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again still opens the cropper
    setAvatarStatus('');
    setErrors((current) => ({ ...current, avatar: undefined }));
    if (!file) return;
    if (file.size > AVATAR_MAX_BYTES) {
      setErrors((current) => ({ ...current, avatar: 'errors.too_large' }));
      return;
    }
    setCropSource(file);
  };

  // Focus goes back to "Change avatar" once the cropper dialog has closed (not while it is modal).
  const refocus = useRef(false);
  useEffect(() => {
    if (cropSource || !refocus.current) return;
    refocus.current = false;
    changeButton.current?.focus();
  }, [cropSource]);

  const closeCropper = () => {
    refocus.current = true;
    setCropSource(null);
  };

  const onCrop = async (blob: Blob) => {
    setCropSource(null);
    setAvatarBusy(true);
    setAvatarStatus(t('profile.uploading'));
    try {
      const body = new FormData();
      const extension = blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg';
      body.append('purpose', 'avatar');
      body.append('file', blob, `avatar.${extension}`);
      const upload = await apiCall<UploadResult>('upload', body);
      await saveAvatar(upload.id);
      setAvatarStatus(t('profile.avatarSaved'));
    } catch (error) {
      setAvatarStatus('');
      setErrors((current) => ({ ...current, avatar: avatarErrorKey(error) }));
    } finally {
      setAvatarBusy(false);
      changeButton.current?.focus();
    }
  };

  const onRemoveAvatar = async () => {
    setAvatarBusy(true);
    setErrors((current) => ({ ...current, avatar: undefined }));
    try {
      await saveAvatar(null);
      setAvatarStatus(t('profile.avatarRemoved'));
    } catch (error) {
      setErrors((current) => ({ ...current, avatar: avatarErrorKey(error) }));
    } finally {
      setAvatarBusy(false);
    }
  };

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setFormError('');
    const found = validate(fields);
    setErrors((current) => ({ ...found, avatar: current.avatar }));
    const first = (Object.keys(found) as (keyof Fields)[])[0];
    if (first) {
      setFormError(t('profile.fixErrors'));
      form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const updated = await apiCall<UserInfo>('user/edit', {
        nickname: fields.nickname.trim(),
        url: fields.url.trim().toLowerCase(),
        bio: fields.bio.trim(),
        location: fields.location.trim(),
        website: fields.website.trim(),
      });
      setUserInfo(updated);
      // The page (banner, tabs, title) is rendered by the server: reload it at the current address.
      window.location.assign(`${variantPath(variant, userPath(updated.url, 'profile'))}?saved=1`);
    } catch (error) {
      setSaving(false);
      if (error instanceof ApiError) {
        const fieldErrors = (error.fields ?? {}) as FieldErrors;
        setErrors((current) => ({ ...current, ...fieldErrors }));
        setFormError(error.message || t(`errors.${error.errorKey}`));
        const name = Object.keys(fieldErrors)[0];
        if (name) form.current?.querySelector<HTMLElement>(`[name="${name}"]`)?.focus();
      } else setFormError(t('errors.internal'));
    }
  };

  const describedBy = (name: keyof Fields, hint: boolean) => [hint ? id(`${name}-hint`) : '', errors[name] ? id(`${name}-error`) : ''].filter(Boolean).join(' ') || undefined;

  const errorOf = (name: keyof Fields) =>
    errors[name] ? (
      <p className="field-error" id={id(`${name}-error`)}>
        {message(errors[name])}
      </p>
    ) : null;

  // The avatar's error is a full message key (errors.…, validation.… or cropper.…).
  const avatarError = errors.avatar ? t(errors.avatar) : '';

  return (
    <div className="profile-editor">
      <section className="avatar-editor" aria-labelledby={id('avatar-title')}>
        <h3 id={id('avatar-title')} className="field-label" style={{ margin: 0 }}>
          {t('profile.avatar')}
        </h3>
        <img className="avatar" src={avatarSrc(user.avatar, user.nickname)} width={144} height={144} alt={t('user.avatarOf', { name: user.nickname })} data-testid="profile-avatar" />
        <input ref={fileInput} id={id('avatar-file')} type="file" accept={AVATAR_TYPES} className="visually-hidden" tabIndex={-1} onChange={onPickFile} data-testid="avatar-file" aria-describedby={id('avatar-hint')} />
        <button ref={changeButton} type="button" className="btn" onClick={() => fileInput.current?.click()} disabled={avatarBusy}>
          {avatarBusy ? t('profile.uploading') : t('profile.changeAvatar')}
        </button>
        {user.avatar && (
          <button type="button" className="btn" onClick={() => void onRemoveAvatar()} disabled={avatarBusy}>
            {t('profile.removeAvatar')}
          </button>
        )}
        <p className="field-hint" id={id('avatar-hint')}>
          {t('profile.avatarHint')}
        </p>
        <p className="field-error" role="alert" hidden={!avatarError}>
          {avatarError}
        </p>
        <p className={avatarStatus && !avatarBusy ? 'form-status' : 'visually-hidden'} role="status">
          {avatarStatus}
        </p>
      </section>

      <form ref={form} noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('profile.editTitle')}>
        {/* Disabled until hydrated, so nothing typed before the island is live can be lost. */}
        <fieldset className="form-stack" disabled={!hydrated} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <div className="form-error" role="alert" hidden={!formError}>
          {formError}
        </div>
        <div className="field">
          <label htmlFor={id('nickname')}>{t('profile.nickname')}</label>
          <input id={id('nickname')} name="nickname" value={fields.nickname} onChange={onField('nickname')} maxLength={NICKNAME_MAX} required autoComplete="nickname" aria-invalid={errors.nickname ? true : undefined} aria-describedby={describedBy('nickname', false)} />
          {errorOf('nickname')}
        </div>
        <div className="field">
          <label htmlFor={id('url')}>{t('profile.url')}</label>
          <div className="input-group">
            <span className="input-prefix" aria-hidden="true">
              {origin.replace(/^https?:\/\//, '')}/user/
            </span>
            <input id={id('url')} name="url" value={fields.url} onChange={onField('url')} maxLength={CUSTOM_URL_MAX} required autoCapitalize="none" spellCheck={false} aria-invalid={errors.url ? true : undefined} aria-describedby={describedBy('url', true)} />
          </div>
          <p className="field-hint" id={id('url-hint')}>
            {t('profile.urlHint')}
          </p>
          {errorOf('url')}
        </div>
        <div className="field">
          <label htmlFor={id('bio')}>{t('profile.bio')}</label>
          <textarea id={id('bio')} name="bio" value={fields.bio} onChange={onField('bio')} maxLength={BIO_MAX} rows={4} aria-invalid={errors.bio ? true : undefined} aria-describedby={describedBy('bio', true)} />
          <p className="field-hint" id={id('bio-hint')}>
            {t('profile.bioCount', { used: fields.bio.length, max: BIO_MAX })}
          </p>
          {errorOf('bio')}
        </div>
        <div className="field">
          <label htmlFor={id('location')}>{t('profile.location')}</label>
          <input id={id('location')} name="location" value={fields.location} onChange={onField('location')} maxLength={LOCATION_MAX} autoComplete="address-level2" aria-invalid={errors.location ? true : undefined} aria-describedby={describedBy('location', false)} />
          {errorOf('location')}
        </div>
        <div className="field">
          <label htmlFor={id('website')}>{t('profile.website')}</label>
          <input id={id('website')} name="website" type="url" inputMode="url" value={fields.website} onChange={onField('website')} maxLength={WEBSITE_MAX} autoComplete="url" placeholder="https://" aria-invalid={errors.website ? true : undefined} aria-describedby={describedBy('website', true)} />
          <p className="field-hint" id={id('website-hint')}>
            {t('profile.websiteHint')}
          </p>
          {errorOf('website')}
        </div>
        <div className="form-actions">
          <button type="submit" className={`btn btn-primary${saving ? ' is-busy' : ''}`} disabled={saving}>
            {saving ? t('profile.saving') : t('profile.save')}
          </button>
        </div>
        </fieldset>
      </form>

      {cropSource && (
        <Suspense fallback={null}>
          <ImageCropper
            src={cropSource}
            aspectRatio={1}
            outputType="jpeg"
            outputQuality={0.92}
            locale={locale}
            onError={() => setErrors((current) => ({ ...current, avatar: 'cropper.loadError' }))}
            onCrop={(blob) => void onCrop(blob)}
            onCancel={closeCropper}
          />
        </Suspense>
      )}
    </div>
  );
}
