import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format.ts';
import type { Locale } from '../../lib/i18n.ts';
import { projectPath, variantPath, type Variant } from '../../lib/paths.ts';
import { formatDuration, isoDuration } from '../../lib/video-format.ts';
import type { Video } from '../../lib/contract/schemas/videos.ts';

/** The player's address of a video in the page's variant. */
export function playerPath(variant: Variant, id: string): string {
  return variantPath(variant, `/video/player?id=${encodeURIComponent(id)}`);
}

/** What a card needs of a video; lists that carry more (state, date, project) show more. */
export type VideoCardData = Pick<Video, 'id' | 'title' | 'poster' | 'duration'> & Partial<Pick<Video, 'status' | 'errorKey' | 'createdAt' | 'project'>>;

export interface VideoCardProps {
  video: VideoCardData;
  locale: string;
  variant: Variant;
  /** The owner's own list: states of videos not yet playable are shown. */
  showStatus?: boolean;
  eager?: boolean;
  children?: React.ReactNode;
}

/** A video in a list: its poster with the duration, title and date; links to the player once ready. */
export function VideoCard({ video, locale, variant, showStatus = false, eager = false, children }: VideoCardProps) {
  const { t } = useTranslation();
  const href = playerPath(variant, video.id);
  const duration = formatDuration(video.duration);
  return (
    <article className="card project-card video-card" data-video-id={video.id} data-video-status={video.status ?? 'ready'}>
      <a className="cover video-cover" href={href} tabIndex={-1} aria-hidden="true">
        {video.poster ? <img src={video.poster} alt="" width={400} height={225} loading={eager ? 'eager' : 'lazy'} decoding="async" /> : <span className="video-cover-blank" />}
        {duration && <time className="video-duration" dateTime={isoDuration(video.duration)}>{duration}</time>}
      </a>
      <div className="body">
        <h3>
          <a href={href}>{video.title}</a>
        </h3>
        {((showStatus && video.status && video.status !== 'ready') || video.createdAt) && (
          <p className="video-meta muted">
            {showStatus && video.status && video.status !== 'ready' && <span className={`video-status video-status-${video.status}`}>{t(`video.status.${video.status}`)}</span>}
            {video.createdAt && <time dateTime={video.createdAt}>{formatDate(video.createdAt, locale as Locale)}</time>}
          </p>
        )}
        {showStatus && video.status === 'failed' && video.errorKey && <p className="video-failure">{t(`video.errors.${video.errorKey}`)}</p>}
        {showStatus && video.status === 'uploading' && <p className="video-hint muted">{t('video.list.uploadingHint')}</p>}
        {video.project && (
          <p className="video-project muted">
            {t('video.fromProject')}{' '}
            <a href={variantPath(variant, projectPath(video.project.id))}>{video.project.title}</a>
          </p>
        )}
        {children}
      </div>
    </article>
  );
}
