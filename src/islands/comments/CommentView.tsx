import { useTranslation } from 'react-i18next';
import type { CommentItem } from '../../lib/conversation-types.ts';
import { userPath, variantPath, type Variant } from '../../lib/paths.ts';
import { Avatar } from '../shared/Avatar.tsx';
import { LinkifiedText } from '../shared/LinkifiedText.tsx';
import { TimeAgo } from '../shared/TimeAgo.tsx';
import { createReport } from '../../stores/report.ts';
import { ReportTrigger } from '../report/ReportDialog.tsx';
import { useIslandStore } from '../use-island-store.ts';

interface CommentViewProps {
  item: CommentItem;
  variant: Variant;
  locale: string;
  highlighted: boolean;
  onLike: (item: CommentItem) => void;
  onReply: (item: CommentItem) => void;
  onDelete: (item: CommentItem) => void;
  /** The signed-in reader's custom URL (null: a guest): members may report others' comments. */
  viewerUrl: string | null;
}

/** "Report" on one comment: its own report store and dialog. */
function CommentReport({ id }: { id: number }) {
  const report = useIslandStore(() => createReport('comment', id));
  return <ReportTrigger report={report} className="comment-action" />;
}

/** One comment or reply (or the tombstone of a deleted one) with like, reply and delete. */
export function CommentView({ item, variant, locale, highlighted, onLike, onReply, onDelete, viewerUrl }: CommentViewProps) {
  const { t } = useTranslation();
  const className = ['comment', item.parentId ? 'is-reply' : '', highlighted ? 'is-highlighted' : '', item.deleted ? 'is-deleted' : ''].filter(Boolean).join(' ');
  if (item.deleted || !item.author) {
    return (
      <article id={`comment-${item.id}`} className={className} tabIndex={-1}>
        <p className="comment-tombstone">{t('comments.deleted')}</p>
      </article>
    );
  }
  const authorHref = variantPath(variant, userPath(item.author.url));
  return (
    <article id={`comment-${item.id}`} className={className} aria-label={item.author.nickname} tabIndex={-1}>
      <a href={authorHref} className="comment-avatar" tabIndex={-1} aria-hidden="true">
        <Avatar src={item.author.avatar} name={item.author.nickname} size={36} />
      </a>
      <div className="comment-main">
        <header className="comment-head">
          <a className="comment-author" href={authorHref}>
            {item.author.nickname}
          </a>
          {item.byOwner && <span className="chip comment-owner">{t('comments.ownerBadge')}</span>}
          {item.replyTo && (
            <span className="comment-reply-to">
              <span aria-hidden="true">↪ </span>
              <a href={variantPath(variant, userPath(item.replyTo.url))} aria-label={t('comments.replyingTo', { name: `@${item.replyTo.nickname}` })}>
                @{item.replyTo.nickname}
              </a>
            </span>
          )}
          <a className="comment-time muted" href={`?comment=${item.id}#comment-${item.id}`} title={t('comments.permalink')}>
            <TimeAgo iso={item.createdAt} locale={locale} />
          </a>
        </header>
        <LinkifiedText className="comment-text" text={item.content} links={item.links} />
        <footer className="comment-actions">
          <button type="button" className="comment-action" aria-pressed={item.liked} onClick={() => onLike(item)}>
            <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
              <path
                d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"
                fill={item.liked ? 'currentColor' : 'none'}
                stroke="currentColor"
                strokeWidth="2"
                strokeLinejoin="round"
              />
            </svg>
            <span>{t('comments.like')}</span>
            {item.likeCount > 0 && <span className="comment-like-count">{item.likeCount}</span>}
          </button>
          <button type="button" className="comment-action" onClick={() => onReply(item)}>
            {t('comments.reply')}
          </button>
          {item.canDelete && (
            <button type="button" className="comment-action comment-delete" onClick={() => onDelete(item)}>
              {t('comments.delete')}
            </button>
          )}
          {viewerUrl !== null && viewerUrl !== item.author.url && <CommentReport id={item.id} />}
        </footer>
      </div>
    </article>
  );
}
