import { useStore } from '@nanostores/react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ProjectOptions } from './ProjectOptions.tsx';
import { VIDEO_MAX_BYTES, VIDEO_MAX_SECONDS, VIDEO_TITLE_MAX } from '../../lib/contract/video.ts';
import { formatBytes } from '../../lib/format.ts';
import type { Locale } from '../../lib/i18n.ts';
import { isAlert, noticeText } from '../../lib/notice.ts';
import { formatSpeed, splitSeconds } from '../../lib/video-format.ts';
import { uploadFraction, type VideoUploadStore } from '../../stores/video-upload.ts';
import { useHydrated } from '../use-hydrated.ts';

export interface UploadPanelProps {
  upload: VideoUploadStore;
  projects: { id: string; title: string }[];
  locale: string;
}

/** The owner's upload form: drop zone and picker, title, project, progress with speed and time left, Cancel and Resume. */
export function UploadPanel({ upload, projects, locale }: UploadPanelProps) {
  const { t } = useTranslation();
  const state = useStore(upload.$upload);
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const titleId = useId();
  const titleErrorId = useId();
  const projectId = useId();
  const { phase, file } = state;
  const sending = phase === 'starting' || phase === 'uploading' || phase === 'paused' || phase === 'saving';
  const percent = Math.floor(uploadFraction(state) * 100);
  const alert = isAlert(state.notice);
  const left = state.secondsLeft === null ? null : splitSeconds(state.secondsLeft);

  function onDrop(event: DragEvent<HTMLElement>): void {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !sending) void upload.pick(dropped);
  }

  return (
    <section className="card panel video-upload" aria-labelledby={`${titleId}-heading`}>
      <h2 id={`${titleId}-heading`}>{t('video.upload.heading')}</h2>
      {!sending && (
        <div
          className={`video-drop${dragging ? ' is-dragging' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="video-drop"
        >
          <p>{t('video.upload.dropHint')}</p>
          <button type="button" className="btn" onClick={() => input.current?.click()} disabled={!hydrated}>
            {file && phase !== 'done' ? t('video.upload.chooseOther') : t('video.upload.choose')}
          </button>
          <input
            ref={input}
            type="file"
            accept="video/*"
            hidden
            aria-label={t('video.upload.choose')}
            data-testid="video-file"
            onChange={(event) => {
              const picked = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (picked) void upload.pick(picked);
            }}
          />
          <p className="muted video-limits">{t('video.upload.limits', { size: VIDEO_MAX_BYTES / 1024 ** 3, minutes: VIDEO_MAX_SECONDS / 60 })}</p>
        </div>
      )}
      {file && phase !== 'done' && (
        <form
          className="video-upload-form"
          onSubmit={(event) => {
            event.preventDefault();
            void (phase === 'error' ? upload.retry() : upload.send());
          }}
        >
          <p className="video-file-name">
            <strong>{file.name}</strong> <span className="muted">· {formatBytes(file.size, locale as Locale)}</span>
          </p>
          <div className="field">
            <label htmlFor={titleId}>{t('video.upload.title')}</label>
            <input
              id={titleId}
              type="text"
              maxLength={VIDEO_TITLE_MAX}
              value={state.title}
              onChange={(event) => upload.setTitle(event.currentTarget.value)}
              disabled={phase === 'saving'}
              aria-invalid={state.titleError ? true : undefined}
              aria-describedby={state.titleError ? titleErrorId : undefined}
            />
            {state.titleError && (
              <p id={titleErrorId} className="field-error">
                {noticeText(state.titleError, t)}
              </p>
            )}
          </div>
          {projects.length > 0 && (
            <div className="field">
              <label htmlFor={projectId}>{t('video.upload.project')}</label>
              <select id={projectId} value={state.projectId} onChange={(event) => upload.setProject(event.currentTarget.value)} disabled={phase === 'saving'}>
                <ProjectOptions projects={projects} />
              </select>
            </div>
          )}
          {(sending || state.sent > 0) && (
            <div className="video-progress" data-testid="video-progress">
              <progress max={100} value={percent} aria-label={t('video.upload.progressLabel')} />
              <span className="video-progress-numbers">
                <strong>{t('video.upload.percent', { percent })}</strong>
                {' · '}
                {formatBytes(state.sent, locale as Locale)} / {formatBytes(state.total, locale as Locale)}
                {state.rate !== null && phase === 'uploading' && <> · {t('video.upload.speed', { speed: formatSpeed(state.rate, locale) })}</>}
                {left && phase === 'uploading' && <> · {left.minutes > 0 ? t('video.upload.leftMinutes', { minutes: left.minutes, seconds: left.seconds, count: left.minutes }) : t('video.upload.leftSeconds', { count: left.seconds })}</>}
              </span>
            </div>
          )}
          <div className="video-actions">
            {phase === 'picked' && state.unfinished && (
              <>
                <button type="submit" className="btn btn-primary">
                  {t('video.upload.resumeUnfinished')}
                </button>
                <button type="button" className="btn" onClick={() => void upload.startOver()}>
                  {t('video.upload.startOver')}
                </button>
              </>
            )}
            {phase === 'picked' && !state.unfinished && (
              <button type="submit" className="btn btn-primary" disabled={!hydrated}>
                {t('video.upload.start')}
              </button>
            )}
            {(phase === 'starting' || phase === 'uploading') && (
              <button type="button" className="btn" onClick={() => void upload.cancel()} disabled={phase === 'starting'}>
                {t('video.upload.cancel')}
              </button>
            )}
            {phase === 'paused' && (
              <>
                <button type="button" className="btn btn-primary" onClick={upload.resume}>
                  {t('video.upload.resume')}
                </button>
                <button type="button" className="btn" onClick={() => void upload.reset()}>
                  {t('video.upload.discard')}
                </button>
              </>
            )}
            {phase === 'error' && (
              <>
                <button type="submit" className="btn btn-primary">
                  {t('common.retry')}
                </button>
                <button type="button" className="btn" onClick={() => void upload.reset()}>
                  {t('video.upload.discard')}
                </button>
              </>
            )}
            <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'}>
              {state.notice ? noticeText(state.notice, t) : ''}
            </p>
          </div>
        </form>
      )}
      {(!file || phase === 'done') && state.notice && (
        <p className={`status-message${alert ? ' error' : ''}`} role={alert ? 'alert' : 'status'}>
          {noticeText(state.notice, t)}
        </p>
      )}
    </section>
  );
}
