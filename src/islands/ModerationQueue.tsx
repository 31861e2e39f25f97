import { useStore } from '@nanostores/react';
import { useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { isAlert, noticeText } from '../lib/notice.ts';
import { userPath, variantPath, type Variant } from '../lib/paths.ts';
import { createModerationQueue, type ReportItem } from '../stores/moderation-queue.ts';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface ModerationQueueProps {
  reports: ReportItem[];
  status: 'open' | 'closed';
  variant: Variant;
  locale: string;
  messages: IslandMessages;
}

type Queue = ReturnType<typeof createModerationQueue>;

/**
 * A report's note for the audit log. The queue hydrates when the moderator starts to use it
 * (`client:interaction`, which also holds a press made before its code arrived): text typed before
 * then is the note (taken in a layout effect, before the held press is performed), never wiped.
 */
function NoteField({ id, value, onChange }: { id: string; value: string; onChange: (note: string) => void }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const typed = ref.current?.value ?? '';
    if (typed && typed !== value) onChange(typed);
  }, []); // once, on hydration
  return <textarea ref={ref} id={id} rows={2} maxLength={1000} value={value} onChange={(event) => onChange(event.target.value)} />;
}

function ReportCard({ report, queue, variant, open }: { report: ReportItem; queue: Queue; variant: Variant; open: boolean }) {
  const { t } = useTranslation();
  const { busyId } = useStore(queue.$queue);
  const draft = queue.draftOf(report.id);
  const noteId = useId();
  const busy = busyId === report.id;
  const target = report.target;
  const person = (ref: ReportItem['reporter']) => (ref ? <a href={variantPath(variant, userPath(ref.url))}>{ref.nickname}</a> : t('admin.reports.formerMember'));
  return (
    <article className="card panel report-card" aria-labelledby={`report-${report.id}-title`} data-report-id={report.id}>
      <header>
        <p className="report-kind">
          <span className="chip">{t(`admin.reports.kind.${report.kind}`)}</span> <span className="chip">{t(`admin.reports.reason.${report.reason}`)}</span>
          {target?.hidden && <span className="chip report-flag"> {t('admin.reports.hidden')}</span>}
          {target?.suspended && <span className="chip report-flag"> {t('admin.reports.suspended')}</span>}
        </p>
        {target ? (
          <h2 id={`report-${report.id}-title`}>
            <a href={variantPath(variant, target.href)}>{target.title}</a>
          </h2>
        ) : (
          <h2 id={`report-${report.id}-title`} className="muted">
            {t('admin.reports.gone')}
          </h2>
        )}
        {target?.excerpt && <blockquote className="report-excerpt">{target.excerpt}</blockquote>}
        {target?.author && <p className="muted">{t('admin.reports.by', { name: target.author.nickname })}</p>}
      </header>
      <p>
        {t('admin.reports.reportedBy', { name: '' })}
        {person(report.reporter)}
        {open && <span className="muted"> · {t('admin.reports.onTarget', { count: report.openOnTarget })}</span>}
      </p>
      {report.note && <p className="report-note">“{report.note}”</p>}
      {report.resolution && (
        <p className="muted">
          {t('admin.reports.resolution', { action: t(`admin.reports.action.${report.resolution.action}`), name: report.resolution.by?.nickname ?? t('admin.reports.formerMember') })}
          {report.resolution.note && <> — {report.resolution.note}</>}
        </p>
      )}
      {!open && target?.hidden && (
        <div className="report-buttons">
          <button type="button" className="btn" disabled={busy} onClick={() => void queue.restore(report.id)}>
            {t('admin.reports.action.restore')}
          </button>
        </div>
      )}
      {open && (
        <fieldset className="report-actions" disabled={busy}>
          <legend className="visually-hidden">{t('admin.reports.actionsLabel')}</legend>
          <label htmlFor={noteId}>{t('admin.reports.noteLabel')}</label>
          <NoteField id={noteId} value={draft.note} onChange={(note) => queue.setDraft(report.id, { note })} />
          <label className="report-hide-all">
            <input type="checkbox" checked={draft.hideContent} onChange={(event) => queue.setDraft(report.id, { hideContent: event.target.checked })} />
            {t('admin.reports.hideContent')}
          </label>
          <div className="report-buttons">
            <button type="button" className="btn" onClick={() => void queue.resolve(report.id, 'dismiss')}>
              {t('admin.reports.action.dismiss')}
            </button>
            {target && !target.hidden && (
              <button type="button" className="btn btn-danger" onClick={() => void queue.resolve(report.id, 'hide')}>
                {t('admin.reports.action.hide')}
              </button>
            )}
            {target?.hidden && (
              <button type="button" className="btn" onClick={() => void queue.restore(report.id)}>
                {t('admin.reports.action.restore')}
              </button>
            )}
            {target?.author && !target.suspended && (
              <button type="button" className="btn btn-danger-solid" onClick={() => void queue.resolve(report.id, 'suspend')}>
                {t('admin.reports.action.suspend')}
              </button>
            )}
          </div>
          {busy && (
            <p className="muted" role="status">
              {t('admin.reports.working')}
            </p>
          )}
        </fieldset>
      )}
    </article>
  );
}

function Queue({ reports, status, variant }: Omit<ModerationQueueProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const queue = useIslandStore(() => createModerationQueue(reports));
  const state = useStore(queue.$queue);
  const notices = Object.entries(state.notices);
  return (
    <div className="moderation-queue">
      {notices.length > 0 && (
        <ul className="report-notices">
          {notices.map(([id, notice]) => (
            <li key={id} className={isAlert(notice) ? 'status-message error' : 'status-message'} role={isAlert(notice) ? 'alert' : 'status'}>
              {noticeText(notice, t)}
            </li>
          ))}
        </ul>
      )}
      {state.reports.length === 0 ? (
        <p className="muted">{status === 'open' ? t('admin.reports.empty') : t('admin.reports.emptyClosed')}</p>
      ) : (
        <ol className="report-list">
          {state.reports.map((report) => (
            <li key={report.id}>
              <ReportCard report={report} queue={queue} variant={variant} open={status === 'open'} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/**
 * The moderation queue of `/admin/reports`: each report with its content in context and, while
 * open, a note and the actions (dismiss, hide or restore, suspend with or without hiding all of
 * the member's content). The logic is the store's (`src/stores/moderation-queue.ts`).
 */
export default function ModerationQueue({ locale, messages, ...props }: ModerationQueueProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Queue {...props} />
    </I18nProvider>
  );
}
