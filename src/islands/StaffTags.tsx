import { useStore } from '@nanostores/react';
import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffTag } from '../lib/contract/schemas/staff.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { createTagEditor, parentChoices } from '../stores/staff-tags.ts';
import { I18nProvider } from './i18n.tsx';
import { FieldError, StaffStatus } from './staff/StaffStatus.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface StaffTagsProps {
  locale: string;
  messages: IslandMessages;
  tags: StaffTag[];
}

/** `/admin/tags`: the tree; each tag renamed in both languages, moved, or merged into another; a form to add one. */
export default function StaffTags({ messages, ...props }: StaffTagsProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Tags {...props} />
    </I18nProvider>
  );
}

function Tags({ tags }: Omit<StaffTagsProps, 'messages' | 'locale'>) {
  const { t } = useTranslation();
  const editor = useIslandStore(() => createTagEditor(tags));
  const { items, busy, notice, fields } = useStore(editor.$list);
  const [open, setOpen] = useState<string | null>(null);
  const [draft, setDraft] = useState({ nameEn: '', nameZh: '', parent: '', into: '' });
  const [fresh, setFresh] = useState({ slug: '', nameEn: '', nameZh: '', parent: '' });
  const id = useId();

  function openTag(tag: StaffTag) {
    setOpen(tag.slug);
    setDraft({ nameEn: tag.nameEn, nameZh: tag.nameZh, parent: tag.parent ?? '', into: '' });
  }

  /** A tag's rename, move and merge forms: the change is sent, and the tag's forms close once it is done. */
  const closeOnceDone = (change: () => Promise<boolean>) => (event: SubmitEvent) => {
    event.preventDefault();
    void change().then((done) => done && setOpen(null));
  };

  return (
    <div className="staff-section">
      <StaffStatus notice={notice} />
      <ul className="staff-list" aria-label={t('admin.tags.listLabel')}>
        {items.map((tag) => (
          <li key={tag.id} className={`card panel staff-item ${tag.parent ? 'staff-child' : ''}`} data-member-made={tag.curated ? undefined : 'true'}>
            <div className="staff-item-text">
              <span>
                <strong>{tag.nameEn}</strong> / <strong lang="zh-CN">{tag.nameZh}</strong> <span className="muted">{tag.slug}</span>
              </span>
              <span className="muted">
                {t('admin.tags.projects', { count: tag.projectCount })}
                {tag.aliases.length > 0 && ` · ${t('admin.tags.aliases', { slugs: tag.aliases.join(', ') })}`}
              </span>
              {!tag.curated && <span className="muted">{t('admin.tags.memberMade')}</span>}
            </div>
            {open === tag.slug ? (
              <div className="staff-form">
                <form className="staff-inline" onSubmit={closeOnceDone(() => editor.rename(tag.slug, draft.nameEn, draft.nameZh))}>
                  <label className="field">
                    <span className="field-label">{t('admin.nameEn')}</span>
                    <input className="input" value={draft.nameEn} onChange={(event) => setDraft({ ...draft, nameEn: event.target.value })} />
                  </label>
                  <label className="field">
                    <span className="field-label">{t('admin.nameZh')}</span>
                    <input className="input" value={draft.nameZh} onChange={(event) => setDraft({ ...draft, nameZh: event.target.value })} />
                  </label>
                  <button type="submit" className="btn btn-primary" disabled={busy}>
                    {t('admin.tags.rename')}
                  </button>
                </form>
                <form className="staff-inline" onSubmit={closeOnceDone(() => editor.move(tag.slug, draft.parent || null))}>
                  <label className="field">
                    <span className="field-label">{t('admin.tags.parent')}</span>
                    <select className="input" value={draft.parent} onChange={(event) => setDraft({ ...draft, parent: event.target.value })}>
                      <option value="">{t('admin.tags.top')}</option>
                      {parentChoices(items, tag.slug).map((parent) => (
                        <option key={parent.slug} value={parent.slug}>
                          {parent.nameEn} / {parent.nameZh}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button type="submit" className="btn" disabled={busy}>
                    {t('admin.tags.move')}
                  </button>
                </form>
                <form className="staff-inline" onSubmit={closeOnceDone(() => (draft.into ? editor.merge(tag.slug, draft.into) : Promise.resolve(false)))}>
                  <label className="field">
                    <span className="field-label">{t('admin.tags.mergeInto')}</span>
                    <select className="input" value={draft.into} onChange={(event) => setDraft({ ...draft, into: event.target.value })}>
                      <option value="">—</option>
                      {items
                        .filter((other) => other.slug !== tag.slug)
                        .map((other) => (
                          <option key={other.slug} value={other.slug}>
                            {other.nameEn} / {other.nameZh} ({other.slug})
                          </option>
                        ))}
                    </select>
                  </label>
                  <button type="submit" className="btn" disabled={busy || !draft.into}>
                    {t('admin.tags.merge')}
                  </button>
                </form>
                <FieldError id={`${id}-${tag.slug}-parent`} fields={fields} name="parent" />
                <FieldError id={`${id}-${tag.slug}-into`} fields={fields} name="into" />
                <button type="button" className="btn" onClick={() => setOpen(null)}>
                  {t('common.close')}
                </button>
              </div>
            ) : (
              <button type="button" className="btn" aria-label={t('admin.tags.editTag', { name: tag.nameEn })} onClick={() => openTag(tag)} disabled={busy}>
                {t('common.edit')}
              </button>
            )}
          </li>
        ))}
      </ul>

      <form
        className="card panel staff-form"
        aria-labelledby={`${id}-title`}
        onSubmit={(event) => {
          event.preventDefault();
          void editor.create({ ...fresh, parent: fresh.parent || null }).then((done) => done && setFresh({ slug: '', nameEn: '', nameZh: '', parent: '' }));
        }}
      >
        <h2 id={`${id}-title`}>{t('admin.tags.add')}</h2>
        <label className="field">
          <span className="field-label">{t('admin.tags.slug')}</span>
          <input className="input" value={fresh.slug} onChange={(event) => setFresh({ ...fresh, slug: event.target.value })} aria-describedby={`${id}-slug-error`} />
          <FieldError id={`${id}-slug-error`} fields={fields} name="slug" />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.nameEn')}</span>
          <input className="input" value={fresh.nameEn} onChange={(event) => setFresh({ ...fresh, nameEn: event.target.value })} />
          <FieldError id={`${id}-nameEn-error`} fields={fields} name="nameEn" />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.nameZh')}</span>
          <input className="input" value={fresh.nameZh} onChange={(event) => setFresh({ ...fresh, nameZh: event.target.value })} />
          <FieldError id={`${id}-nameZh-error`} fields={fields} name="nameZh" />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.tags.parent')}</span>
          <select className="input" value={fresh.parent} onChange={(event) => setFresh({ ...fresh, parent: event.target.value })}>
            <option value="">{t('admin.tags.top')}</option>
            {items
              .filter((tag) => tag.curated && tag.parent === null)
              .map((tag) => (
                <option key={tag.slug} value={tag.slug}>
                  {tag.nameEn} / {tag.nameZh}
                </option>
              ))}
          </select>
        </label>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('admin.tags.add')}
        </button>
      </form>
    </div>
  );
}
