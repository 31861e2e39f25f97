import { useStore } from '@nanostores/react';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { noticeText } from '../lib/notice.ts';
import type { Variant } from '../lib/paths.ts';
import type { CommentSort } from '../lib/conversation-types.ts';
import { createComments, type CommentsInit } from '../stores/comments.ts';
import { Composer } from './comments/Composer.tsx';
import { Thread } from './comments/Thread.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';

export interface CommentsProps extends CommentsInit {
  locale: string;
  messages: IslandMessages;
  variant: Variant;
}

const sortHref = (value: CommentSort) => (value === 'newest' ? '?#comments' : `?commentSort=${value}#comments`);

function CommentsBody({ locale, variant, ...init }: Omit<CommentsProps, 'messages'>) {
  const { t } = useTranslation();
  const comments = useIslandStore(() => createComments(init));
  const state = useStore(comments.$comments);
  const { count, sort, threads, focus, total, page, listBusy, listError, composer, confirm, deleting, status } = state;
  const firstPage = init.initial.page;
  const listed = focus ? threads.filter((thread) => thread.id !== focus.id) : threads;
  const hasMore = page * init.initial.pageSize < total;
  const moreHref = `?commentPage=${page + 1}${sort === 'oldest' ? '&commentSort=oldest' : ''}#comments`;
  const follow = (event: MouseEvent<HTMLAnchorElement>, action: () => void) => {
    event.preventDefault();
    action();
  };
  const thread = (item: (typeof threads)[number]) => <Thread key={item.id} thread={item} comments={comments} variant={variant} locale={locale} viewerUrl={init.viewer?.url ?? null} />;

  return (
    <>
      <div className="comments-head">
        <h2 id="comments-title">
          {t('comments.title')} <span className="comments-count">{formatNumber(count, locale)}</span>
        </h2>
        <nav className="comments-sort" aria-label={t('comments.sortLabel')}>
          {(['newest', 'oldest'] as const).map((value) => (
            <a key={value} href={sortHref(value)} aria-current={sort === value ? 'true' : undefined} className="chip" onClick={(event) => follow(event, () => comments.changeSort(value))}>
              {value === 'newest' ? t('comments.sortNewest') : t('comments.sortOldest')}
            </a>
          ))}
        </nav>
      </div>

      <Composer
        label={t('comments.composer.label')}
        placeholder={t('comments.composer.placeholder')}
        value={composer.text}
        onChange={comments.setText}
        onSubmit={() => void comments.submit()}
        busy={composer.busy}
        error={composer.error ? noticeText(composer.error, t) : null}
        submitLabel={t('comments.composer.submit')}
        guest={comments.guest}
        guestLabel={t('comments.composer.signInToComment')}
        max={comments.maxLength}
        notice={composer.restored ? t('comments.composer.restored') : null}
      />

      <p className="visually-hidden" role="status" aria-live="polite">
        {status ? noticeText(status, t) : ''}
      </p>

      {focus && (
        <section className="comments-linked" aria-label={t('comments.linked')}>
          <h3 className="muted">{t('comments.linked')}</h3>
          <ol className="comment-list">{thread(focus)}</ol>
        </section>
      )}

      {firstPage > 1 && (
        <p>
          <a href={sortHref(sort)}>{t('comments.newest')}</a>
        </p>
      )}

      {listed.length === 0 && !focus ? (
        <p className="comments-empty muted">{t('comments.empty')}</p>
      ) : (
        <ol className="comment-list" aria-busy={listBusy}>
          {listed.map(thread)}
        </ol>
      )}

      {listError && (
        <p className="form-error" role="alert">
          {noticeText(listError, t)}
        </p>
      )}
      {hasMore && (
        <p className="comments-more">
          <a className="btn" href={moreHref} onClick={(event) => follow(event, comments.loadMore)} aria-disabled={listBusy}>
            {listBusy ? t('common.loading') : t('comments.loadMore')}
          </a>
        </p>
      )}

      <ConfirmDialog
        open={confirm !== null}
        title={t('comments.confirm.title')}
        confirmLabel={t('comments.confirm.confirm')}
        danger
        busy={deleting}
        onConfirm={() => void comments.confirmDelete()}
        onCancel={comments.cancelDelete}
      >
        <p>{t('comments.confirm.text')}</p>
      </ConfirmDialog>
    </>
  );
}

/** The discussion of a project: comments with reply threads, likes, deletion, sorting, paging. */
export default function Comments({ messages, ...props }: CommentsProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <CommentsBody {...props} />
    </I18nProvider>
  );
}
