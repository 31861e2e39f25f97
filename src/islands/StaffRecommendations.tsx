import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PinnedProject } from '../lib/contract/schemas/staff.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { projectPath } from '../lib/paths.ts';
import { createPinEditor } from '../stores/staff-recommendations.ts';
import { I18nProvider } from './i18n.tsx';
import { StaffStatus } from './staff/StaffStatus.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface StaffRecommendationsProps {
  locale: string;
  messages: IslandMessages;
  pinned: PinnedProject[];
}

/** `/admin/recommendations`: the pinned projects in order (move, unpin) and a form to pin one. */
export default function StaffRecommendations({ messages, ...props }: StaffRecommendationsProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Pins {...props} />
    </I18nProvider>
  );
}

function Pins({ pinned }: Omit<StaffRecommendationsProps, 'messages' | 'locale'>) {
  const { t } = useTranslation();
  const editor = useIslandStore(() => createPinEditor(pinned));
  const { items, busy, notice } = useStore(editor.$list);
  const [project, setProject] = useState('');
  const [rank, setRank] = useState('');

  return (
    <div className="staff-section">
      <ol className="staff-list" aria-label={t('admin.recommendations.listLabel')}>
        {items.length === 0 && <li className="muted">{t('admin.recommendations.empty')}</li>}
        {items.map((item, index) => (
          <li key={item.id} className="card panel staff-item">
            <span className="staff-item-text">
              <span>
                <strong>{item.rank}.</strong> <a href={projectPath(item.id)}>{item.title}</a> <span className="muted">{item.id}</span>
              </span>
            </span>
            <span className="staff-actions">
              <button type="button" className="btn" aria-label={t('admin.moveUp', { name: item.title })} disabled={busy || index === 0} onClick={() => void editor.move(index, -1)}>
                ↑
              </button>
              <button type="button" className="btn" aria-label={t('admin.moveDown', { name: item.title })} disabled={busy || index === items.length - 1} onClick={() => void editor.move(index, 1)}>
                ↓
              </button>
              <button type="button" className="btn" aria-label={t('admin.recommendations.unpin', { name: item.title })} disabled={busy} onClick={() => void editor.unpin(item.id)}>
                {t('admin.recommendations.unpinShort')}
              </button>
            </span>
          </li>
        ))}
      </ol>
      <form
        className="card panel staff-form"
        onSubmit={(event) => {
          event.preventDefault();
          void editor.pin(project, rank).then((done) => {
            if (done) {
              setProject('');
              setRank('');
            }
          });
        }}
      >
        <h2>{t('admin.recommendations.pinTitle')}</h2>
        <label className="field">
          <span className="field-label">{t('admin.recommendations.project')}</span>
          <input className="input" value={project} placeholder={t('admin.projectIdPlaceholder')} onChange={(event) => setProject(event.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.recommendations.rank')}</span>
          <input className="input" type="number" min={1} value={rank} onChange={(event) => setRank(event.target.value)} />
          <span className="field-hint">{t('admin.recommendations.rankHint')}</span>
        </label>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('admin.recommendations.pin')}
        </button>
        <StaffStatus notice={notice} />
      </form>
    </div>
  );
}
