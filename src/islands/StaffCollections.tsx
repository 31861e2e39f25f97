import { useStore } from '@nanostores/react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffCollection } from '../lib/contract/schemas/staff.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX, COVER_ASPECT, createCollectionEditor } from '../stores/staff-collections.ts';
import { I18nProvider } from './i18n.tsx';
import { StaffImageField } from './staff/StaffImageField.tsx';
import { FieldError, StaffStatus } from './staff/StaffStatus.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface StaffCollectionsProps {
  locale: string;
  messages: IslandMessages;
  collections: StaffCollection[];
}

/** `/admin/collections`: each collection with its projects (add, remove, reorder), and a form to create or edit one. */
export default function StaffCollections({ messages, ...props }: StaffCollectionsProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Collections {...props} />
    </I18nProvider>
  );
}

function Collections({ collections, locale }: Omit<StaffCollectionsProps, 'messages'>) {
  const { t } = useTranslation();
  const editor = useIslandStore(() => createCollectionEditor(collections));
  const { items, busy, notice, fields } = useStore(editor.$list);
  const { form, ...picture } = useStore(editor.$form);
  const [adding, setAdding] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const editing = form.id !== null;
  const text = (name: 'name' | 'titleEn' | 'titleZh', label: string) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        className="input"
        value={form[name]}
        maxLength={name === 'name' ? 60 : COLLECTION_TITLE_MAX}
        readOnly={name === 'name' && editing}
        onChange={(event) => editor.setField(name, event.target.value)}
        aria-invalid={fields[name] ? true : undefined}
        aria-describedby={`${id}-${name}-error${name === 'name' && editing ? ` ${id}-name-hint` : ''}`}
      />
      {name === 'name' && editing && (
        <span className="field-hint" id={`${id}-name-hint`}>
          {t('admin.collections.nameFixed')}
        </span>
      )}
      <FieldError id={`${id}-${name}-error`} fields={fields} name={name} />
    </label>
  );
  const description = (name: 'descriptionEn' | 'descriptionZh', label: string) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <textarea className="input" rows={3} value={form[name]} maxLength={COLLECTION_DESCRIPTION_MAX} onChange={(event) => editor.setField(name, event.target.value)} aria-invalid={fields[name] ? true : undefined} aria-describedby={`${id}-${name}-error`} />
      <FieldError id={`${id}-${name}-error`} fields={fields} name={name} />
    </label>
  );

  return (
    <div className="staff-section">
      <StaffStatus notice={notice} />
      {items.length === 0 && <p className="muted">{t('admin.collections.empty')}</p>}
      {items.map((collection) => (
        <section key={collection.id} className="card panel staff-form" aria-label={collection.name}>
          <h2>
            <a href={`/collection/${collection.name}`}>{locale === 'zh-CN' ? collection.titleZh : collection.titleEn}</a> <span className="muted">/collection/{collection.name}</span>
          </h2>
          {collection.featured && <span className="chip">{t('admin.collections.featuredChip')}</span>}
          {collection.cover && <img src={collection.cover} alt="" width={160} height={120} className="staff-cover-thumb" />}
          <ol className="staff-list" aria-label={t('admin.collections.projectsOf', { name: collection.name })}>
            {collection.projects.length === 0 && <li className="muted">{t('admin.collections.noProjects')}</li>}
            {collection.projects.map((project, index) => (
              <li key={project.id} className="staff-item">
                <span className="staff-item-text">
                  <span>
                    {project.title} <span className="muted">{project.id}</span>
                  </span>
                </span>
                <span className="staff-actions">
                  <button type="button" className="btn" aria-label={t('admin.moveUp', { name: project.title })} disabled={busy || index === 0} onClick={() => void editor.moveProject(collection.name, index, -1)}>
                    ↑
                  </button>
                  <button type="button" className="btn" aria-label={t('admin.moveDown', { name: project.title })} disabled={busy || index === collection.projects.length - 1} onClick={() => void editor.moveProject(collection.name, index, 1)}>
                    ↓
                  </button>
                  <button type="button" className="btn" aria-label={t('admin.collections.removeProject', { name: project.title })} disabled={busy} onClick={() => void editor.removeProject(collection.name, project.id)}>
                    {t('admin.remove')}
                  </button>
                </span>
              </li>
            ))}
          </ol>
          <form
            className="staff-inline"
            onSubmit={(event) => {
              event.preventDefault();
              void editor.addProject(collection.name, adding[collection.name] ?? '').then((done) => done && setAdding({ ...adding, [collection.name]: '' }));
            }}
          >
            <label className="field">
              <span className="field-label">{t('admin.collections.addLabel', { name: collection.name })}</span>
              <input className="input" value={adding[collection.name] ?? ''} placeholder={t('admin.projectIdPlaceholder')} onChange={(event) => setAdding({ ...adding, [collection.name]: event.target.value })} />
            </label>
            <button type="submit" className="btn" disabled={busy}>
              {t('admin.collections.add')}
            </button>
          </form>
          <span className="staff-actions">
            <button
              type="button"
              className="btn"
              aria-label={t('admin.collections.edit', { name: collection.name })}
              disabled={busy}
              onClick={() => {
                editor.edit(collection);
                formRef.current?.scrollIntoView({ block: 'start' });
                formRef.current?.querySelector<HTMLInputElement>('input:not([readonly])')?.focus({ preventScroll: true });
              }}
            >
              {t('common.edit')}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => void editor.remove(collection.name)}>
              {t('admin.collections.delete')}
            </button>
          </span>
        </section>
      ))}

      <form
        ref={formRef}
        className="card panel staff-form"
        aria-labelledby={`${id}-title`}
        onSubmit={(event) => {
          event.preventDefault();
          void editor.save();
        }}
      >
        <h2 id={`${id}-title`}>{editing ? t('admin.collections.editTitle', { name: form.name }) : t('admin.collections.create')}</h2>
        {text('name', t('admin.collections.name'))}
        {text('titleEn', t('admin.titleEn'))}
        {text('titleZh', t('admin.titleZh'))}
        {description('descriptionEn', t('admin.collections.descriptionEn'))}
        {description('descriptionZh', t('admin.collections.descriptionZh'))}
        <label>
          <input type="checkbox" checked={form.featured} onChange={(event) => editor.setField('featured', event.target.checked)} /> {t('admin.collections.featured')}
        </label>
        <StaffImageField
          editor={editor}
          state={picture}
          name="cover"
          id={id}
          fields={fields}
          label={t('admin.collections.cover')}
          preview={form.cover && <img src={form.cover} alt={t('admin.collections.coverPreview')} width={160} height={120} className="staff-cover-thumb" />}
          button={picture.uploading !== null ? t('admin.uploading', { percent: '…' }) : t('admin.collections.chooseCover')}
          aspectRatio={COVER_ASPECT}
        />
        <span className="staff-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || picture.uploading !== null}>
            {editing ? t('common.save') : t('admin.collections.create')}
          </button>
          {editing && (
            <button type="button" className="btn" onClick={() => editor.edit(null)}>
              {t('common.cancel')}
            </button>
          )}
        </span>
      </form>
    </div>
  );
}
