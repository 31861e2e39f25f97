import { useStore } from '@nanostores/react';
import { useTranslation } from 'react-i18next';
import type { CommentThread } from '../../lib/conversation-types.ts';
import { noticeText } from '../../lib/notice.ts';
import type { Variant } from '../../lib/paths.ts';
import type { CommentsStore } from '../../stores/comments.ts';
import { CommentView } from './CommentView.tsx';
import { Composer } from './Composer.tsx';

interface ThreadProps {
  thread: CommentThread;
  comments: CommentsStore;
  variant: Variant;
  locale: string;
  viewerUrl: string | null;
}

/** A top-level comment with its replies, "show more replies", and the reply box when open here. */
export function Thread({ thread, comments, variant, locale, viewerUrl }: ThreadProps) {
  const { t } = useTranslation();
  const { highlightId, loadingReplies, reply } = useStore(comments.$comments);
  const hidden = Math.max(0, thread.replyCount - thread.replies.length);
  const loading = loadingReplies === thread.id;
  const view = (item: CommentThread | CommentThread['replies'][number]) => (
    <CommentView
      item={item}
      variant={variant}
      locale={locale}
      highlighted={highlightId === item.id}
      onLike={(target) => void comments.like(target)}
      onReply={(target) => comments.openReply(thread.id, target)}
      onDelete={comments.askDelete}
      viewerUrl={viewerUrl}
    />
  );
  const replyName = `@${reply?.target.author?.nickname ?? ''}`;
  return (
    <li className="comment-thread">
      {view(thread)}
      {(thread.replies.length > 0 || hidden > 0) && (
        <ol className="comment-replies">
          {hidden > 0 && (
            <li>
              <button type="button" className="comment-more-replies" onClick={() => void comments.loadReplies(thread)} disabled={loading} aria-busy={loading}>
                {loading ? t('common.loading') : t('comments.showMoreReplies', { count: hidden })}
              </button>
            </li>
          )}
          {thread.replies.map((item) => (
            <li key={item.id}>{view(item)}</li>
          ))}
        </ol>
      )}
      {reply?.threadId === thread.id && (
        <div className="comment-reply-box">
          <Composer
            label={t('comments.composer.replyLabel', { name: replyName })}
            placeholder={`${replyName} · ${t('comments.composer.replyPlaceholder')}`}
            value={reply.text}
            onChange={comments.setReplyText}
            onSubmit={() => void comments.submitReply()}
            onCancel={comments.closeReply}
            busy={reply.busy}
            error={reply.error ? noticeText(reply.error, t) : null}
            submitLabel={t('comments.composer.submitReply')}
            guest={comments.guest}
            guestLabel={t('comments.composer.signInToReply')}
            max={comments.maxLength}
            autoFocus
          />
        </div>
      )}
    </li>
  );
}
