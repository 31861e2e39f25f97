import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import { ProjectOptions } from './ProjectOptions.tsx';
import { isAlert, noticeText } from '../../lib/notice.ts';
import type { Variant } from '../../lib/paths.ts';
import type { VideoListStore } from '../../stores/video-list.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { useHydrated } from '../use-hydrated.ts';
import { VideoCard } from './VideoCard.tsx';

/** The owner's videos, with their states, the project each belongs to, and a delete button each. */
export function OwnerVideoList({ list, locale, variant, projects }: { list: VideoListStore; locale: string; variant: Variant; projects: { id: string; title: string }[] }) {
  const { t } = useTranslation();
  const { videos, deleting, busy, notice } = useStore(list.$videos);
  const hydrated = useHydrated();
  const alert = isAlert(notice);
  return (
    <section className="video-owner-list" aria-labelledby="video-list-heading">
      <h2 id="video-list-heading">{t('video.list.heading')}</h2>
      <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'}>
        {notice ? noticeText(notice, t) : ''}
      </p>
      {videos.length === 0 ? (
        <p className="muted">{t('video.list.empty')}</p>
      ) : (
        <ul className="grid video-grid">
          {videos.map((video, index) => (
            <li key={video.id}>
              <VideoCard video={video} locale={locale} variant={variant} showStatus eager={index < 4}>
                <div className="video-card-actions">
                  {projects.length > 0 && (
                    <label className="video-card-project">
                      <span>{t('video.upload.project')}</span>
                      <select
                        value={video.project?.id ?? ''}
                        disabled={!hydrated || busy}
                        onChange={(event) => void list.linkProject(video, event.currentTarget.value || null)}
                        aria-label={t('video.list.projectLabel', { title: video.title })}
                      >
                        <ProjectOptions projects={projects} />
                      </select>
                    </label>
                  )}
                  <button type="button" className="btn btn-danger" onClick={() => list.askDelete(video)} disabled={!hydrated} aria-label={t('video.list.deleteLabel', { title: video.title })}>
                    {t('common.delete')}
                  </button>
                </div>
              </VideoCard>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('video.list.deleteTitle')}
        confirmLabel={t('video.list.deleteConfirm')}
        busyLabel={t('video.list.deleting')}
        busy={busy}
        danger
        onConfirm={() => void list.confirmDelete()}
        onCancel={list.cancelDelete}
      >
        <p>{t('video.list.deleteText', { title: deleting?.title ?? '' })}</p>
      </ConfirmDialog>
    </section>
  );
}
