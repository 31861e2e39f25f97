import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../lib/api-types.ts';
import { avatarSrc } from '../lib/avatar.ts';
import { userPath, variantPath, type Variant } from '../lib/paths.ts';
import { clearAuth } from '../stores/auth.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { I18nProvider } from './i18n.tsx';
import { useAuth } from './use-auth.ts';
import { useUnread } from './use-unread.ts';

export interface HeaderUserMenuProps {
  locale: string;
  messages: IslandMessages;
  /** The signed-in user as the server rendered the page. */
  user: UserInfo;
  variant?: Variant;
}

/**
 * The signed-in part of the header: avatar and nickname opening a menu (My projects, Stars,
 * Drafts, Messages, Profile, Create, Sign out). Keyboard: Enter/Space/ArrowDown open it, arrows
 * move, Home/End jump, Escape closes and returns focus to the button, Tab leaves it.
 */
export default function HeaderUserMenu(props: HeaderUserMenuProps) {
  return (
    <I18nProvider locale={props.locale} messages={props.messages}>
      <Menu {...props} />
    </I18nProvider>
  );
}

function Menu({ user: initialUser, variant = 'desktop' }: HeaderUserMenuProps) {
  const { t } = useTranslation();
  const { userInfo } = useAuth({ signedIn: true, userInfo: initialUser });
  const user = userInfo ?? initialUser;
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const focusOnOpen = useRef<'first' | 'last' | null>(null);

  // The unread badge shares `$messages` with the mobile tab bar and the messages page.
  const unread = useUnread(initialUser.unreadMessages);
  const path = (tab?: string) => variantPath(variant, userPath(user.url, tab));
  const items = [
    { href: path(), label: t('account.myProjects') },
    { href: path('stars'), label: t('account.stars') },
    { href: path('draftbox'), label: t('account.drafts') },
    { href: path('message'), label: t('account.messages'), badge: unread },
    { href: path('profile'), label: t('account.profile') },
    { href: variantPath(variant, '/create/project'), label: t('account.create') },
  ];

  const menuItems = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    const target = focusOnOpen.current;
    focusOnOpen.current = null;
    if (target) {
      const list = menuItems();
      (target === 'first' ? list[0] : list[list.length - 1])?.focus();
    }
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      focusOnOpen.current = event.key === 'ArrowDown' ? 'first' : 'last';
      if (open) {
        const list = menuItems();
        (event.key === 'ArrowDown' ? list[0] : list[list.length - 1])?.focus();
      } else setOpen(true);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const list = menuItems();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (next: number) => {
      event.preventDefault();
      list[(next + list.length) % list.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(index + 1);
      case 'ArrowUp':
        return move(index - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(list.length - 1);
      case 'Escape':
        event.preventDefault();
        return close(true);
      case 'Tab':
        return close(false);
      default:
        return undefined;
    }
  };

  const onButtonClick = () => {
    if (!open) focusOnOpen.current = null;
    setOpen(!open);
  };

  return (
    <div className="user-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={unread > 0 ? `${t('account.menu', { name: user.nickname })}, ${t('account.unread', { count: unread })}` : t('account.menu', { name: user.nickname })}
        onClick={onButtonClick}
        onKeyDown={onButtonKey}
        data-testid="user-menu-button"
      >
        <span className="user-menu-avatar">
          <img className="avatar" src={avatarSrc(user.avatar, user.nickname)} width={30} height={30} alt="" data-testid="header-avatar" />
          {unread > 0 && (
            <span className="badge" data-testid="unread-badge" aria-hidden="true">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </span>
        <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true"><path d="M2 4l4 4 4-4" stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" /></svg>
      </button>
      <div className="user-menu-list" hidden={!open}>
      <p className="menu-head">{t('account.signedInAs', { name: user.nickname })}</p>
      <ul id={menuId} role="menu" aria-label={t('account.menu', { name: user.nickname })} onKeyDown={onMenuKey}>
        {items.map((item) => (
          <li role="none" key={item.href}>
            <a role="menuitem" tabIndex={-1} href={item.href}>
              <span>{item.label}</span>
              {item.badge ? (
                <span className="badge">
                  {item.badge > 99 ? '99+' : item.badge}
                  <span className="visually-hidden"> · {t('account.unread', { count: item.badge })}</span>
                </span>
              ) : null}
            </a>
          </li>
        ))}
        <li role="separator" />
        <li role="none">
          {/* A POST: a link to /logout from another site only opens the confirmation page. */}
          <form method="post" action={variantPath(variant, '/logout')} onSubmit={() => clearAuth()}>
            <button type="submit" role="menuitem" tabIndex={-1}>
              {t('account.signOut')}
            </button>
          </form>
        </li>
      </ul>
      </div>
    </div>
  );
}
