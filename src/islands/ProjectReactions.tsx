import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { I18nProvider } from './i18n.tsx';

type Kind = 'star' | 'like';

export interface ProjectReactionsProps {
  projectId: string;
  starred: boolean;
  liked: boolean;
  starCount: number;
  likeCount: number;
  signedIn: boolean;
  /** Sign-in addresses that come back to this page with `?intent=star` / `?intent=like`. */
  signInUrls: Record<Kind, string>;
  locale: string;
}

interface State {
  starred: boolean;
  liked: boolean;
  starCount: number;
  likeCount: number;
}

/** Updates the server-rendered counters of the page (the stats grid) to the island's numbers. */
function publishCounts(state: State) {
  for (const element of document.querySelectorAll<HTMLElement>('[data-project-count]')) {
    const kind = element.dataset.projectCount;
    if (kind === 'stars') element.textContent = new Intl.NumberFormat(document.documentElement.lang).format(state.starCount);
    if (kind === 'likes') element.textContent = new Intl.NumberFormat(document.documentElement.lang).format(state.likeCount);
  }
}

function Reactions({ projectId, signedIn, signInUrls, ...initial }: Omit<ProjectReactionsProps, 'locale'>) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>(initial);
  const [pending, setPending] = useState<Kind | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const stateRef = useRef(state);
  stateRef.current = state;

  async function apply(kind: Kind, value: boolean) {
    const before = stateRef.current;
    const optimistic: State =
      kind === 'star'
        ? { ...before, starred: value, starCount: Math.max(0, before.starCount + (value === before.starred ? 0 : value ? 1 : -1)) }
        : { ...before, liked: value, likeCount: Math.max(0, before.likeCount + (value === before.liked ? 0 : value ? 1 : -1)) };
    setState(optimistic);
    publishCounts(optimistic);
    setPending(kind);
    setMessage(null);
    try {
      const next =
        kind === 'star'
          ? await apiCall<{ starred: boolean; starCount: number }>('project/star', { id: projectId, value }).then((r) => ({ ...stateRef.current, starred: r.starred, starCount: r.starCount }))
          : await apiCall<{ liked: boolean; likeCount: number }>('project/like', { id: projectId, value }).then((r) => ({ ...stateRef.current, liked: r.liked, likeCount: r.likeCount }));
      setState(next);
      publishCounts(next);
      setMessage({ text: t(`reactions.${kind}${value ? 'Done' : 'Undone'}`), error: false });
    } catch (error) {
      if (error instanceof ApiError && error.retCode === 401) {
        window.location.assign(signInUrls[kind]);
        return;
      }
      // Roll back to what the server last confirmed and say why.
      setState(before);
      publishCounts(before);
      const reason = error instanceof ApiError ? t(`errors.${error.errorKey}`, { defaultValue: t('errors.internal') }) : t('errors.internal');
      setMessage({ text: t(`reactions.${kind}Failed`, { reason }), error: true });
    } finally {
      setPending(null);
    }
  }

  function press(kind: Kind) {
    if (!signedIn) {
      window.location.assign(signInUrls[kind]);
      return;
    }
    void apply(kind, kind === 'star' ? !stateRef.current.starred : !stateRef.current.liked);
  }

  // Back from sign-in with ?intent=star|like: finish what the guest pressed, then clean the URL.
  useEffect(() => {
    setHydrated(true);
    const url = new URL(window.location.href);
    const intent = url.searchParams.get('intent');
    if (intent !== 'star' && intent !== 'like') return;
    url.searchParams.delete('intent');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    if (!signedIn) return;
    const already = intent === 'star' ? stateRef.current.starred : stateRef.current.liked;
    if (!already) void apply(intent, true);
    else setMessage({ text: t(`reactions.${intent}Done`), error: false });
  }, []);

  return (
    <div className="reactions-box">
      <div className="reactions">
        <button type="button" className="btn" aria-pressed={state.starred} onClick={() => press('star')} disabled={!hydrated || pending === 'star'} data-reaction="star">
          <span aria-hidden="true">{state.starred ? '★' : '☆'}</span>
          {state.starred ? t('reactions.starred') : t('reactions.star')}
          <span className="count" aria-label={t('reactions.starCount', { count: state.starCount })}>{state.starCount}</span>
        </button>
        <button type="button" className="btn" aria-pressed={state.liked} onClick={() => press('like')} disabled={!hydrated || pending === 'like'} data-reaction="like">
          <span aria-hidden="true">{state.liked ? '♥' : '♡'}</span>
          {state.liked ? t('reactions.liked') : t('reactions.like')}
          <span className="count" aria-label={t('reactions.likeCount', { count: state.likeCount })}>{state.likeCount}</span>
        </button>
      </div>
      <p className={`status-message${message?.error ? ' error' : ' visually-hidden'}`} role={message?.error ? 'alert' : 'status'} aria-live="polite">
        {message?.text ?? ''}
      </p>
    </div>
  );
}

/** Star and like buttons of a project page: optimistic, rolled back on failure; guests sign in first. */
export default function ProjectReactions({ locale, ...props }: ProjectReactionsProps) {
  return (
    <I18nProvider locale={locale}>
      <Reactions {...props} />
    </I18nProvider>
  );
}
