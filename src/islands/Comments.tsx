import { useCallback, useEffect, useId, useRef, useState, type SubmitEvent, type KeyboardEvent, type MouseEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { CommentItem, CommentSort, CommentThread, CommentUser, ListPage } from '../lib/conversation-types.ts';
import { userPath, variantPath, type Variant } from '../lib/paths.ts';
import { countCharacters } from '../lib/text.ts';
import { initAuth } from '../stores/auth.ts';
import { I18nProvider } from './i18n.tsx';
import { Avatar } from './shared/Avatar.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { LinkifiedText } from './shared/LinkifiedText.tsx';
import { TimeAgo } from './shared/TimeAgo.tsx';

export interface CommentsProps {
  locale: string;
  variant: Variant;
  /** The project's public id. */
  projectId: string;
  /** The project's comment count (comments and replies, deleted ones excluded). */
  commentCount: number;
  /** The page of top-level comments the server rendered. */
  initial: ListPage<CommentThread>;
  sort: CommentSort;
  /** The whole thread of a linked comment (`?comment=<id>`), shown first. */
  focus: CommentThread | null;
  /** The linked comment itself (highlighted). */
  focusId: number | null;
  viewer: CommentUser | null;
  token: string | null;
  /** Sign-in address that returns to `#comments` (guests are sent there to write). */
  signInUrl: string;
  maxLength: number;
}

const REPLY_PAGE_SIZE = 50;
const DRAFT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface StoredDraft {
  text: string;
  /** Set for a reply: the comment it answers. */
  commentId?: number;
  savedAt: number;
}

const draftKey = (projectId: string, kind: 'comment' | 'reply') => `copperhub:draft:${projectId}:${kind}`;
const PENDING_LIKE_KEY = 'copperhub:pending-comment-like';

function readDraft(projectId: string, kind: 'comment' | 'reply'): StoredDraft | null {
  try {
    const raw = localStorage.getItem(draftKey(projectId, kind));
    if (!raw) return null;
    const draft = JSON.parse(raw) as StoredDraft;
    if (typeof draft.text !== 'string' || Date.now() - draft.savedAt > DRAFT_TTL_MS) return null;
    return draft;
  } catch {
    return null;
  }
}

function writeDraft(projectId: string, kind: 'comment' | 'reply', draft: Omit<StoredDraft, 'savedAt'> | null): void {
  try {
    if (!draft || !draft.text.trim()) localStorage.removeItem(draftKey(projectId, kind));
    else localStorage.setItem(draftKey(projectId, kind), JSON.stringify({ ...draft, savedAt: Date.now() }));
  } catch {
    // storage full or disabled: the draft just is not kept
  }
}

/** Merges replies by id, in the order they were written. */
function mergeReplies(current: CommentItem[], more: CommentItem[]): CommentItem[] {
  const byId = new Map<number, CommentItem>();
  for (const item of [...more, ...current]) byId.set(item.id, item);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

function errorText(t: TFunction, error: unknown, max: number): string {
  if (error instanceof ApiError) {
    const field = error.fields?.content;
    if (field === 'too_big') return t('comments.composer.tooLong', { max: max.toLocaleString() });
    if (field === 'required') return t('comments.composer.empty');
    return t(`errors.${error.errorKey}`, { defaultValue: error.message || t('errors.internal') });
  }
  return t('errors.internal');
}

interface ComposerProps {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onCancel?: () => void;
  busy: boolean;
  error: string | null;
  submitLabel: string;
  guest: boolean;
  guestLabel: string;
  max: number;
  autoFocus?: boolean;
  notice?: string | null;
}

function Composer({ label, placeholder, value, onChange, onSubmit, onCancel, busy, error, submitLabel, guest, guestLabel, max, autoFocus, notice }: ComposerProps) {
  const { t } = useTranslation();
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const length = countCharacters(value.trim());
  const over = length > max;
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  const submit = (event?: SubmitEvent) => {
    event?.preventDefault();
    if (!busy) onSubmit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
    if (event.key === 'Escape' && onCancel) onCancel();
  };
  const described = [`${id}-counter`, `${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <form className="comment-composer" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {label}
      </label>
      <textarea
        ref={ref}
        id={`${id}-text`}
        name="content"
        rows={3}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={over || Boolean(error)}
        aria-describedby={described}
      />
      {notice && <p className="comment-notice">{notice}</p>}
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="composer-bar">
        <span id={`${id}-hint`} className="muted composer-hint">
          {guest ? t('comments.composer.guestHint') : t('comments.composer.hint')}
        </span>
        <span id={`${id}-counter`} className={over ? 'composer-counter over' : 'composer-counter muted'}>
          {t('comments.composer.counter', { used: length.toLocaleString(), max: max.toLocaleString() })}
        </span>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel} disabled={busy}>
            {t('comments.composer.cancel')}
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy || (!guest && over)} aria-disabled={busy}>
          {guest ? guestLabel : busy ? t('comments.composer.posting') : submitLabel}
        </button>
      </div>
    </form>
  );
}

interface CommentViewProps {
  item: CommentItem;
  variant: Variant;
  locale: string;
  highlighted: boolean;
  onLike: (item: CommentItem) => void;
  onReply: (item: CommentItem) => void;
  onDelete: (item: CommentItem) => void;
}

function CommentView({ item, variant, locale, highlighted, onLike, onReply, onDelete }: CommentViewProps) {
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
        <LinkifiedText className="comment-text" text={item.content} />
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
        </footer>
      </div>
    </article>
  );
}

interface ReplyState {
  threadId: number;
  target: CommentItem;
}

function CommentsBody(props: CommentsProps) {
  const { variant, locale, projectId, viewer, maxLength } = props;
  const { t } = useTranslation();
  if (!import.meta.env.SSR) initAuth({ token: props.token });
  const guest = viewer === null;
  const [count, setCount] = useState(props.commentCount);
  const [sort, setSort] = useState<CommentSort>(props.sort);
  const [threads, setThreads] = useState<CommentThread[]>(props.initial.list);
  const [focus, setFocus] = useState<CommentThread | null>(props.focus);
  const [total, setTotal] = useState(props.initial.total);
  const [page, setPage] = useState(props.initial.page);
  const [listBusy, setListBusy] = useState(false);
  const [listError, setListError] = useState<string | null>(null);
  const [loadingReplies, setLoadingReplies] = useState<number | null>(null);
  /** Pages of older replies loaded per thread (replies page oldest first). */
  const [replyPages, setReplyPages] = useState<Record<number, number>>({});
  const [highlightId, setHighlightId] = useState<number | null>(props.focusId);
  const [text, setText] = useState('');
  const [textNotice, setTextNotice] = useState<string | null>(null);
  const [posting, setPosting] = useState(false);
  const [postError, setPostError] = useState<string | null>(null);
  const [reply, setReply] = useState<ReplyState | null>(null);
  const [replyText, setReplyText] = useState('');
  const [replyBusy, setReplyBusy] = useState(false);
  const [replyError, setReplyError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<CommentItem | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [status, setStatus] = useState('');
  const firstPage = props.initial.page;

  /** Applies `change` to every thread shown (the linked one and the list); null removes a thread. */
  const mapThreads = useCallback((change: (thread: CommentThread) => CommentThread | null) => {
    setThreads((list) => list.map(change).filter((thread): thread is CommentThread => thread !== null));
    setFocus((thread) => (thread ? change(thread) : null));
  }, []);

  const updateItem = useCallback(
    (id: number, patch: Partial<CommentItem>) =>
      mapThreads((thread) =>
        thread.id === id
          ? { ...thread, ...patch }
          : thread.replies.some((item) => item.id === id)
            ? { ...thread, replies: thread.replies.map((item) => (item.id === id ? { ...item, ...patch } : item)) }
            : thread,
      ),
    [mapThreads],
  );

  const findItem = useCallback(
    (id: number): { thread: CommentThread; item: CommentItem } | null => {
      for (const thread of focus ? [focus, ...threads] : threads) {
        if (thread.id === id) return { thread, item: thread };
        const item = thread.replies.find((candidate) => candidate.id === id);
        if (item) return { thread, item };
      }
      return null;
    },
    [focus, threads],
  );

  const goSignIn = useCallback(
    (commentId?: number) => {
      const signIn = new URL(props.signInUrl, window.location.href);
      const back = new URL(signIn.searchParams.get('redirect') ?? window.location.href);
      if (commentId) {
        back.searchParams.set('comment', String(commentId));
        back.hash = `comment-${commentId}`;
      } else back.hash = 'comments';
      signIn.searchParams.set('redirect', back.toString());
      window.location.assign(signIn.toString());
    },
    [props.signInUrl],
  );

  // After sign-in (or a reload): bring back unsent text, finish a like started as a guest, and
  // show the comment a link points to.
  useEffect(() => {
    const draft = readDraft(projectId, 'comment');
    if (draft) {
      setText(draft.text);
      setTextNotice(t('comments.composer.restored'));
    }
    // A reply draft reopens only when coming back to that comment (the sign-in return address).
    const replyDraft = readDraft(projectId, 'reply');
    if (replyDraft?.commentId && window.location.hash === `#comment-${replyDraft.commentId}`) {
      const found = findItem(replyDraft.commentId);
      if (found && !found.item.deleted) {
        setReply({ threadId: found.thread.id, target: found.item });
        setReplyText(replyDraft.text);
      }
    }
    if (viewer) {
      try {
        const pending = JSON.parse(sessionStorage.getItem(PENDING_LIKE_KEY) ?? 'null') as { projectId: string; commentId: number } | null;
        sessionStorage.removeItem(PENDING_LIKE_KEY);
        const found = pending?.projectId === projectId ? findItem(pending.commentId) : null;
        if (found && !found.item.liked) void like(found.item);
      } catch {
        // no pending like
      }
    }
    const showTarget = () => {
      const match = /^#comment-(\d+)$/.exec(window.location.hash);
      if (!match) return;
      setHighlightId(Number(match[1]));
      document.getElementById(`comment-${match[1]}`)?.scrollIntoView({ block: 'center' });
    };
    showTarget();
    if (draft && !window.location.hash.startsWith('#comment-')) document.getElementById('comments')?.scrollIntoView();
    window.addEventListener('hashchange', showTarget);
    return () => window.removeEventListener('hashchange', showTarget);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on hydration
  }, []);

  /** Scrolls to a comment just written and moves keyboard focus there. */
  const reveal = (id: number) =>
    requestAnimationFrame(() => {
      const element = document.getElementById(`comment-${id}`);
      element?.scrollIntoView({ block: 'nearest' });
      element?.focus({ preventScroll: true });
    });

  const changeText = (value: string) => {
    setText(value);
    setPostError(null);
    setTextNotice(null);
    writeDraft(projectId, 'comment', { text: value });
  };

  const changeReplyText = (value: string) => {
    setReplyText(value);
    setReplyError(null);
    if (reply) writeDraft(projectId, 'reply', { text: value, commentId: reply.target.id });
  };

  const validate = (value: string): string | null => {
    const length = countCharacters(value.trim());
    if (length === 0) return t('comments.composer.empty');
    if (length > maxLength) return t('comments.composer.tooLong', { max: maxLength.toLocaleString() });
    return null;
  };

  const submit = async () => {
    if (guest) {
      writeDraft(projectId, 'comment', { text });
      goSignIn();
      return;
    }
    const problem = validate(text);
    if (problem) {
      setPostError(problem);
      return;
    }
    setPosting(true);
    setPostError(null);
    try {
      const created = await apiCall<CommentThread>('comment/submit', { id: projectId, content: text });
      setThreads((list) => (sort === 'newest' ? [created, ...list] : [...list, created]));
      setTotal((n) => n + 1);
      setCount((n) => n + 1);
      setText('');
      writeDraft(projectId, 'comment', null);
      setHighlightId(created.id);
      setStatus(t('comments.posted'));
      reveal(created.id);
    } catch (error) {
      // The session ended meanwhile: sign in again, the text is kept as for guests.
      if (error instanceof ApiError && error.retCode === 401) goSignIn();
      else setPostError(errorText(t, error, maxLength));
    } finally {
      setPosting(false);
    }
  };

  const openReply = (threadId: number, target: CommentItem) => {
    setReply({ threadId, target });
    const draft = readDraft(projectId, 'reply');
    setReplyText(draft?.commentId === target.id ? draft.text : '');
    setReplyError(null);
  };

  const closeReply = () => {
    setReply(null);
    setReplyText('');
    setReplyError(null);
    writeDraft(projectId, 'reply', null);
  };

  const submitReply = async () => {
    if (!reply) return;
    if (guest) {
      writeDraft(projectId, 'reply', { text: replyText, commentId: reply.target.id });
      goSignIn(reply.target.id);
      return;
    }
    const problem = validate(replyText);
    if (problem) {
      setReplyError(problem);
      return;
    }
    setReplyBusy(true);
    setReplyError(null);
    try {
      const created = await apiCall<CommentItem>('comment/reply', { commentId: reply.target.id, content: replyText });
      mapThreads((thread) =>
        thread.id === created.parentId ? { ...thread, replies: mergeReplies(thread.replies, [created]), replyCount: thread.replyCount + 1 } : thread,
      );
      setCount((n) => n + 1);
      setReply(null);
      setReplyText('');
      writeDraft(projectId, 'reply', null);
      setHighlightId(created.id);
      setStatus(t('comments.replyPosted'));
      reveal(created.id);
    } catch (error) {
      if (error instanceof ApiError && error.retCode === 401) {
        writeDraft(projectId, 'reply', { text: replyText, commentId: reply.target.id });
        goSignIn(reply.target.id);
      } else setReplyError(errorText(t, error, maxLength));
    } finally {
      setReplyBusy(false);
    }
  };

  async function like(item: CommentItem) {
    if (guest) {
      try {
        sessionStorage.setItem(PENDING_LIKE_KEY, JSON.stringify({ projectId, commentId: item.id }));
      } catch {
        // the like is simply not completed after sign-in
      }
      goSignIn(item.id);
      return;
    }
    const value = !item.liked;
    updateItem(item.id, { liked: value, likeCount: Math.max(0, item.likeCount + (value ? 1 : -1)) });
    try {
      const result = await apiCall<{ liked: boolean; likeCount: number }>('comment/like', { commentId: item.id, value });
      updateItem(item.id, result);
    } catch (error) {
      updateItem(item.id, { liked: item.liked, likeCount: item.likeCount });
      setStatus(errorText(t, error, maxLength));
    }
  }

  const remove = async () => {
    const item = confirm;
    if (!item) return;
    setDeleting(true);
    try {
      await apiCall<{ commentId: number }>('comment/del', { commentId: item.id });
      if (item.parentId) {
        mapThreads((thread) => {
          if (thread.id !== item.parentId) return thread;
          const replyCount = Math.max(0, thread.replyCount - 1);
          if (thread.deleted && replyCount === 0) return null;
          return { ...thread, replyCount, replies: thread.replies.filter((candidate) => candidate.id !== item.id) };
        });
      } else {
        const found = findItem(item.id);
        if (found && found.thread.replyCount === 0) setTotal((n) => Math.max(0, n - 1));
        mapThreads((thread) =>
          thread.id !== item.id
            ? thread
            : thread.replyCount > 0
              ? { ...thread, deleted: true, content: '', author: null, canDelete: false, liked: false, byOwner: false }
              : null,
        );
      }
      if (reply?.target.id === item.id) closeReply();
      setCount((n) => Math.max(0, n - 1));
      setStatus(t('comments.removed'));
      setConfirm(null);
    } catch (error) {
      setStatus(errorText(t, error, maxLength));
      setConfirm(null);
    } finally {
      setDeleting(false);
    }
  };

  const loadPage = async (nextPage: number, nextSort: CommentSort, replace: boolean) => {
    setListBusy(true);
    setListError(null);
    try {
      const result = await apiCall<ListPage<CommentThread>>('comment/list', { id: projectId, page: nextPage, pageSize: props.initial.pageSize, sort: nextSort });
      setThreads((list) => {
        if (replace) return result.list;
        const seen = new Set(list.map((thread) => thread.id));
        return [...list, ...result.list.filter((thread) => !seen.has(thread.id))];
      });
      setTotal(result.total);
      setPage(nextPage);
    } catch (error) {
      setListError(errorText(t, error, maxLength));
    } finally {
      setListBusy(false);
    }
  };

  const changeSort = (event: MouseEvent<HTMLAnchorElement>, next: CommentSort) => {
    event.preventDefault();
    if (next === sort || listBusy) return;
    setSort(next);
    void loadPage(1, next, true);
  };

  const loadMore = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (!listBusy) void loadPage(page + 1, sort, false);
  };

  const loadReplies = async (thread: CommentThread) => {
    setLoadingReplies(thread.id);
    try {
      const nextPage = (replyPages[thread.id] ?? 0) + 1;
      const result = await apiCall<ListPage<CommentItem>>('comment/list', {
        id: projectId,
        commentId: thread.id,
        page: nextPage,
        pageSize: REPLY_PAGE_SIZE,
      });
      setReplyPages((pages) => ({ ...pages, [thread.id]: nextPage }));
      mapThreads((candidate) => (candidate.id === thread.id ? { ...candidate, replies: mergeReplies(candidate.replies, result.list), replyCount: result.total } : candidate));
    } catch (error) {
      setStatus(errorText(t, error, maxLength));
    } finally {
      setLoadingReplies(null);
    }
  };

  const sortHref = (value: CommentSort) => (value === 'newest' ? '?#comments' : `?commentSort=${value}#comments`);
  const moreHref = `?commentPage=${page + 1}${sort === 'oldest' ? '&commentSort=oldest' : ''}#comments`;
  const listed = focus ? threads.filter((thread) => thread.id !== focus.id) : threads;
  const hasMore = page * props.initial.pageSize < total;

  const renderThread = (thread: CommentThread) => {
    const hidden = Math.max(0, thread.replyCount - thread.replies.length);
    return (
      <li key={thread.id} className="comment-thread">
        <CommentView
          item={thread}
          variant={variant}
          locale={locale}
          highlighted={highlightId === thread.id}
          onLike={like}
          onReply={(item) => openReply(thread.id, item)}
          onDelete={setConfirm}
        />
        {(thread.replies.length > 0 || hidden > 0) && (
          <ol className="comment-replies">
            {hidden > 0 && (
              <li>
                <button type="button" className="comment-more-replies" onClick={() => void loadReplies(thread)} disabled={loadingReplies === thread.id} aria-busy={loadingReplies === thread.id}>
                  {loadingReplies === thread.id ? t('common.loading') : t('comments.showMoreReplies', { count: hidden })}
                </button>
              </li>
            )}
            {thread.replies.map((item) => (
              <li key={item.id}>
                <CommentView
                  item={item}
                  variant={variant}
                  locale={locale}
                  highlighted={highlightId === item.id}
                  onLike={like}
                  onReply={(target) => openReply(thread.id, target)}
                  onDelete={setConfirm}
                />
              </li>
            ))}
          </ol>
        )}
        {reply?.threadId === thread.id && (
          <div className="comment-reply-box">
            <Composer
              label={t('comments.composer.replyLabel', { name: `@${reply.target.author?.nickname ?? ''}` })}
              placeholder={`@${reply.target.author?.nickname ?? ''} · ${t('comments.composer.replyPlaceholder')}`}
              value={replyText}
              onChange={changeReplyText}
              onSubmit={() => void submitReply()}
              onCancel={closeReply}
              busy={replyBusy}
              error={replyError}
              submitLabel={t('comments.composer.submitReply')}
              guest={guest}
              guestLabel={t('comments.composer.signInToReply')}
              max={maxLength}
              autoFocus
            />
          </div>
        )}
      </li>
    );
  };

  return (
    <>
      <div className="comments-head">
        <h2 id="comments-title">
          {t('comments.title')} <span className="comments-count">{count.toLocaleString(locale)}</span>
        </h2>
        <nav className="comments-sort" aria-label={t('comments.sortLabel')}>
          {(['newest', 'oldest'] as const).map((value) => (
            <a key={value} href={sortHref(value)} aria-current={sort === value ? 'true' : undefined} className="chip" onClick={(event) => changeSort(event, value)}>
              {value === 'newest' ? t('comments.sortNewest') : t('comments.sortOldest')}
            </a>
          ))}
        </nav>
      </div>

      <Composer
        label={t('comments.composer.label')}
        placeholder={t('comments.composer.placeholder')}
        value={text}
        onChange={changeText}
        onSubmit={() => void submit()}
        busy={posting}
        error={postError}
        submitLabel={t('comments.composer.submit')}
        guest={guest}
        guestLabel={t('comments.composer.signInToComment')}
        max={maxLength}
        notice={textNotice}
      />

      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>

      {focus && (
        <section className="comments-linked" aria-label={t('comments.linked')}>
          <h3 className="muted">{t('comments.linked')}</h3>
          <ol className="comment-list">{renderThread(focus)}</ol>
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
          {listed.map(renderThread)}
        </ol>
      )}

      {listError && (
        <p className="form-error" role="alert">
          {listError}
        </p>
      )}
      {hasMore && (
        <p className="comments-more">
          <a className="btn" href={moreHref} onClick={loadMore} aria-disabled={listBusy}>
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
        onConfirm={() => void remove()}
        onCancel={() => setConfirm(null)}
      >
        <p>{t('comments.confirm.text')}</p>
      </ConfirmDialog>
    </>
  );
}

/** The discussion of a project: comments with reply threads, likes, deletion, sorting, paging. */
export default function Comments(props: CommentsProps) {
  return (
    <I18nProvider locale={props.locale}>
      <CommentsBody {...props} />
    </I18nProvider>
  );
}
