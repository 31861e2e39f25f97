import { useStore } from '@nanostores/react';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText, type Notice } from '../lib/notice.ts';
import { PICTURE_TYPES } from '../lib/pictures.ts';
import { createMakeForm, MAKE_PHOTOS_MAX } from '../stores/make-form.ts';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

// cropperjs only runs in the browser: the cropper is loaded when a picture is chosen.
const ImageCropper = lazy(() => import('./ImageCropper.tsx'));

export interface MakeFormProps {
  projectId: string;
  /** Where the makes are shown: opened again once the make is posted, so it shows first. */
  makesHref: string;
  locale: string;
  messages: IslandMessages;
}

function FieldNotice({ id, notice }: { id: string; notice: Notice | null | undefined }) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <p id={id} className={isAlert(notice) ? 'status-message error' : 'status-message'} role={isAlert(notice) ? 'alert' : 'status'}>
      {noticeText(notice, t)}
    </p>
  );
}

function Form({ projectId, makesHref }: Omit<MakeFormProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const form = useIslandStore(() => createMakeForm(projectId));
  const state = useStore(form.$form);
  const pick = useStore(form.photo.$pick);
  const [open, setOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { photos: useId(), note: useId(), link: useId(), photosError: useId(), noteError: useId(), linkError: useId() };

  if (!open) {
    return (
      <button type="button" className="btn btn-primary" onClick={() => setOpen(true)} data-testid="make-open">
        {t('makes.builtThis')}
      </button>
    );
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const made = await form.submit();
    if (!made) return;
    // The page shows the makes from the server: open it again, on the new make.
    if (window.location.pathname === makesHref) {
      window.location.hash = `make-${made.id}`;
      window.location.reload();
    } else window.location.assign(`${makesHref}#make-${made.id}`);
  };

  return (
    <form className="card panel make-form" onSubmit={(event) => void submit(event)} noValidate aria-labelledby={`${ids.photos}-title`}>
      <h3 id={`${ids.photos}-title`}>{t('makes.formTitle')}</h3>
      <fieldset className="field make-photos" aria-describedby={state.errors.photos || pick.error ? ids.photosError : undefined}>
        <legend>{t('makes.photos')}</legend>
        <p className="muted">{t('makes.photosHint', { count: MAKE_PHOTOS_MAX })}</p>
        <ul className="make-photo-list">
          {state.photos.map((photo, index) => (
            <li key={photo.id}>
              <img src={photo.url} alt="" width={96} height={72} />
              <button type="button" className="btn" onClick={() => form.removePhoto(index)} aria-label={t('makes.removePhoto', { n: index + 1 })}>
                ×
              </button>
            </li>
          ))}
        </ul>
        {pick.progress !== null && (
          <p role="status">
            <progress max={1} value={pick.progress} /> {t('makes.uploading', { percent: Math.round(pick.progress * 100) })}
          </p>
        )}
        {state.photos.length < MAKE_PHOTOS_MAX && (
          <label className="btn make-add-photo">
            {t('makes.addPhoto')}
            <input
              ref={fileInput}
              className="visually-hidden"
              type="file"
              accept={PICTURE_TYPES}
              onChange={(event) => {
                form.pickPhoto(event.currentTarget.files?.[0]);
                event.currentTarget.value = '';
              }}
            />
          </label>
        )}
        <FieldNotice id={ids.photosError} notice={state.errors.photos ?? pick.error} />
      </fieldset>
      <div className="field">
        <label htmlFor={ids.note}>{t('makes.note')}</label>
        <textarea id={ids.note} rows={4} value={state.note} placeholder={t('makes.notePlaceholder')} onChange={(event) => form.setNote(event.currentTarget.value)} aria-invalid={Boolean(state.errors.note)} aria-describedby={state.errors.note ? ids.noteError : undefined} />
        <FieldNotice id={ids.noteError} notice={state.errors.note} />
      </div>
      <div className="field">
        <label htmlFor={ids.link}>{t('makes.link')}</label>
        <input id={ids.link} type="text" inputMode="url" value={state.link} placeholder={t('makes.linkPlaceholder')} onChange={(event) => form.setLink(event.currentTarget.value)} aria-invalid={Boolean(state.errors.link)} aria-describedby={state.errors.link ? ids.linkError : undefined} />
        <FieldNotice id={ids.linkError} notice={state.errors.link} />
      </div>
      <FieldNotice id={`${ids.photos}-form`} notice={state.formError} />
      <div className="make-form-actions">
        <button type="submit" className="btn btn-primary" disabled={state.submitting || pick.progress !== null}>
          {state.submitting ? t('makes.submitting') : t('makes.submit')}
        </button>
        <button type="button" className="btn" onClick={() => setOpen(false)}>
          {t('makes.cancel')}
        </button>
      </div>
      {pick.cropSource && (
        <Suspense fallback={null}>
          <ImageCropper
            src={pick.cropSource}
            aspectRatio={4 / 3}
            outputType="jpeg"
            outputQuality={0.9}
            onError={form.photo.cropFailed}
            onCrop={(blob) => void form.addPhoto(blob)}
            onCancel={form.photo.cancel}
          />
        </Suspense>
      )}
    </form>
  );
}

/**
 * "I built this" on a project's makes tab, for signed-in members: photos cropped and uploaded one
 * by one, a note and a link to their variant. Hydrated with `client:interaction`.
 */
export default function MakeForm({ locale, messages, ...props }: MakeFormProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Form {...props} />
    </I18nProvider>
  );
}
