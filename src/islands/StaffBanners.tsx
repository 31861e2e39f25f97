import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffBanner } from '../lib/contract/schemas/staff.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { BANNER_ASPECT, createBannerEditor, type BannerForm } from '../stores/staff-banners.ts';
import { I18nProvider } from './i18n.tsx';
import { StaffImageField } from './staff/StaffImageField.tsx';
import { FieldError, StaffStatus } from './staff/StaffStatus.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface StaffBannersProps {
  locale: string;
  messages: IslandMessages;
  banners: StaffBanner[];
}

/** `/admin/banners`: the banners with their state, and a form to add or edit one (image cropped to a strip). */
export default function StaffBanners({ messages, ...props }: StaffBannersProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Banners {...props} />
    </I18nProvider>
  );
}

function Banners({ banners, locale }: Omit<StaffBannersProps, 'messages'>) {
  const { t } = useTranslation();
  const editor = useIslandStore(() => createBannerEditor(banners));
  const { items, busy, notice, fields } = useStore(editor.$list);
  const { form, ...picture } = useStore(editor.$editor);
  const id = useId();
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : '—');
  const text = (name: keyof BannerForm, label: string, type = 'text') => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        className="input"
        type={type}
        value={form[name] ?? ''}
        onChange={(event) => editor.setField(name, event.target.value)}
        aria-invalid={fields[name] ? true : undefined}
        aria-describedby={`${id}-${name}-error`}
      />
      <FieldError id={`${id}-${name}-error`} fields={fields} name={name} />
    </label>
  );

  return (
    <div className="staff-section">
      <ul className="staff-list" aria-label={t('admin.banners.listLabel')}>
        {items.length === 0 && <li className="muted">{t('admin.banners.empty')}</li>}
        {items.map((banner) => (
          <li key={banner.id} className="card panel staff-item">
            <img src={banner.image} alt="" width={240} height={72} className="staff-banner-thumb" />
            <div className="staff-item-text">
              <strong>{locale === 'zh-CN' ? banner.titleZh : banner.titleEn}</strong>
              <span className={`chip staff-state-${banner.state}`}>{t(`admin.banners.state.${banner.state}`)}</span>
              <span className="muted">
                {t('admin.banners.schedule', { starts: when(banner.startsAt), ends: when(banner.endsAt) })} · #{banner.sort} · {banner.link}
              </span>
            </div>
            <div className="staff-actions">
              <button type="button" className="btn" onClick={() => editor.edit(banner)} disabled={busy}>
                {t('common.edit')}
              </button>
              <button type="button" className="btn" onClick={() => void editor.remove(banner.id)} disabled={busy}>
                {t('common.delete')}
              </button>
            </div>
          </li>
        ))}
      </ul>

      <form
        className="card panel staff-form"
        aria-labelledby={`${id}-title`}
        onSubmit={(event) => {
          event.preventDefault();
          void editor.save();
        }}
      >
        <h2 id={`${id}-title`}>{form.id === null ? t('admin.banners.add') : t('admin.banners.edit', { id: form.id })}</h2>
        <StaffImageField
          editor={editor}
          state={picture}
          name="image"
          id={id}
          fields={fields}
          label={t('admin.banners.image')}
          preview={form.image && <img src={form.image} alt={t('admin.banners.imagePreview')} className="staff-banner-preview" data-testid="banner-image-preview" />}
          button={picture.uploading !== null ? t('admin.uploading', { percent: Math.round(picture.uploading * 100) }) : form.image ? t('admin.banners.changeImage') : t('admin.banners.chooseImage')}
          hint={t('admin.banners.imageHint')}
          aspectRatio={BANNER_ASPECT}
          fileTestId="banner-file"
        />
        {text('titleEn', t('admin.titleEn'))}
        {text('titleZh', t('admin.titleZh'))}
        {text('link', t('admin.banners.link'))}
        {text('sort', t('admin.banners.sort'), 'number')}
        {text('startsAt', t('admin.banners.startsAt'), 'datetime-local')}
        {text('endsAt', t('admin.banners.endsAt'), 'datetime-local')}
        <p className="field-hint">{t('admin.banners.scheduleHint')}</p>
        <div className="staff-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || picture.uploading !== null}>
            {t('common.save')}
          </button>
          {form.id !== null && (
            <button type="button" className="btn" onClick={() => editor.edit(null)}>
              {t('common.cancel')}
            </button>
          )}
        </div>
        <StaffStatus notice={notice} />
      </form>
    </div>
  );
}
