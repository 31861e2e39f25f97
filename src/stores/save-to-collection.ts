import { atom, map } from 'nanostores';
import { COLLECTION_TITLE_MAX } from '../lib/collection-rules.ts';
import type { CollectionChange, MemberCollection } from '../lib/contract/schemas/collections.ts';
import { apiCall } from '../lib/api-client.ts';
import { fail, invalid, say, type Notice } from '../lib/notice.ts';
import { HELD_PRESS_EVENT, takeHeldPress } from '../lib/held-press.ts';

/** One of the member's collections as the menu shows it. */
export interface MenuCollection {
  slug: string;
  title: string;
  public: boolean;
  /** Whether it holds the project the menu is for. */
  checked: boolean;
}

export interface SaveMenuState {
  open: boolean;
  /** The list is on its way (first opening). */
  loading: boolean;
  loaded: boolean;
  collections: MenuCollection[];
  /** The collection whose change the server has not answered yet. */
  pending: string | null;
  /** The "New collection…" form is shown. */
  creating: boolean;
  newTitle: string;
  newPublic: boolean;
  message: Notice | null;
}

export interface SaveMenuInit {
  projectId: string;
  /** The signed-in member's custom URL: whose collections the menu lists. */
  viewerUrl: string;
}

/** The menu's rows from `collection/list` (with `project`): most recently changed first. */
export function menuRows(list: Pick<MemberCollection, 'slug' | 'title' | 'public' | 'hasProject'>[]): MenuCollection[] {
  return list.map((entry) => ({ slug: entry.slug, title: entry.title, public: entry.public, checked: Boolean(entry.hasProject) }));
}

/** The rows once `slug` is set to `checked` (before the server answers, or to roll back). */
export function withChecked(rows: MenuCollection[], slug: string, checked: boolean): MenuCollection[] {
  return rows.map((row) => (row.slug === slug ? { ...row, checked } : row));
}

/** Why a new collection's title cannot be sent, or null: the server's rule, checked before sending. */
export function titleProblem(title: string): Notice | null {
  const trimmed = title.trim();
  if (!trimmed) return invalid('required', 'memberCollections.titleRequired');
  if (trimmed.length > COLLECTION_TITLE_MAX) return invalid('too_big');
  return null;
}

/**
 * "Save to collection" for one project: a menu of the member's collections, each checked when it
 * holds the project; ticking one adds the project, unticking takes it out (at once, rolled back
 * with the reason when refused); "New collection…" makes one and puts the project in it.
 */
export function createSaveMenu({ projectId, viewerUrl }: SaveMenuInit) {
  const $menu = map<SaveMenuState>({
    open: false,
    loading: false,
    loaded: false,
    collections: [],
    pending: null,
    creating: false,
    newTitle: '',
    newPublic: true,
    message: null,
  });

  async function load(): Promise<void> {
    $menu.set({ ...$menu.get(), loading: true, message: null });
    try {
      const answer = await apiCall<{ list: MemberCollection[] }>('collection/list', { url: viewerUrl, project: projectId });
      const rows = menuRows(answer.list);
      // No collection yet: the form to make the first one is what the member needs.
      $menu.set({ ...$menu.get(), loading: false, loaded: true, collections: rows, creating: rows.length === 0 });
    } catch (error) {
      $menu.set({ ...$menu.get(), loading: false, message: fail(error, 'memberCollections.loadFailed') });
    }
  }

  /** Opens or closes the menu; the first opening loads the collections. */
  function toggle(): void {
    const state = $menu.get();
    if (state.open) return close();
    $menu.set({ ...state, open: true, message: null });
    if (!state.loaded && !state.loading) void load();
  }

  function close(): void {
    $menu.set({ ...$menu.get(), open: false, creating: false, newTitle: '', message: null });
  }

  /** A collection's box was ticked or unticked. */
  async function setMembership(slug: string, checked: boolean): Promise<void> {
    const state = $menu.get();
    if (state.pending) return;
    const title = state.collections.find((row) => row.slug === slug)?.title ?? '';
    $menu.set({ ...state, collections: withChecked(state.collections, slug, checked), pending: slug, message: null });
    try {
      await apiCall<CollectionChange>(checked ? 'collection/add' : 'collection/remove', { slug, id: projectId });
      $menu.set({ ...$menu.get(), pending: null, message: say(checked ? 'memberCollections.added' : 'memberCollections.removed', { title }) });
    } catch (error) {
      $menu.set({ ...$menu.get(), collections: withChecked($menu.get().collections, slug, !checked), pending: null, message: fail(error, 'memberCollections.changeFailed') });
    }
  }

  function startNew(): void {
    $menu.set({ ...$menu.get(), creating: true, message: null });
  }

  function typeTitle(value: string): void {
    $menu.set({ ...$menu.get(), newTitle: value, message: null });
  }

  function setNewPublic(value: boolean): void {
    $menu.setKey('newPublic', value);
  }

  /** Makes a collection from the form and saves the project in it. */
  async function createCollection(): Promise<void> {
    const state = $menu.get();
    if (state.pending) return;
    const problem = titleProblem(state.newTitle);
    if (problem) {
      $menu.setKey('message', problem);
      return;
    }
    $menu.set({ ...state, pending: '', message: null });
    let made: MemberCollection | null = null;
    try {
      made = await apiCall<MemberCollection>('collection/save', { title: state.newTitle.trim(), public: state.newPublic });
      await apiCall<CollectionChange>('collection/add', { slug: made.slug, id: projectId });
      const row: MenuCollection = { slug: made.slug, title: made.title, public: made.public, checked: true };
      $menu.set({
        ...$menu.get(),
        collections: [row, ...$menu.get().collections],
        pending: null,
        creating: false,
        newTitle: '',
        newPublic: true,
        message: say('memberCollections.created', { title: made.title }),
      });
    } catch (error) {
      // Made but the project not added: the collection is listed, unticked, for another try.
      const rows = made ? [{ slug: made.slug, title: made.title, public: made.public, checked: false }, ...$menu.get().collections] : $menu.get().collections;
      $menu.set({ ...$menu.get(), collections: rows, creating: !made, pending: null, message: fail(error, 'memberCollections.createFailed') });
    }
  }

  return { $menu, toggle, close, setMembership, startNew, typeTitle, setNewPublic, createCollection };
}

/** What a card's save button says about itself (`CardSave.astro` writes them). */
export const CARD_SAVE_ATTRIBUTE = 'data-save-project';

export type SaveMenu = ReturnType<typeof createSaveMenu>;

/**
 * The save menus of a page's cards, behind one dialog: the cards' buttons are plain HTML (one per
 * card, cheap to render), and a press on any of them opens the menu of its project. A project's
 * menu is made at its first opening and kept, so reopening it shows what was ticked.
 */
export function createCardSaveMenus({ viewerUrl }: { viewerUrl: string }) {
  const menus = new Map<string, SaveMenu>();
  const $active = atom<{ projectId: string; menu: SaveMenu } | null>(null);

  function menuFor(projectId: string): SaveMenu {
    let menu = menus.get(projectId);
    if (!menu) menus.set(projectId, (menu = createSaveMenu({ projectId, viewerUrl })));
    return menu;
  }

  /** Opens the menu of `projectId` (closing another one that is open). */
  function open(projectId: string): void {
    const current = $active.get();
    if (current && current.projectId !== projectId) current.menu.close();
    const menu = menuFor(projectId);
    $active.set({ projectId, menu });
    if (!menu.$menu.get().open) menu.toggle();
  }

  /**
   * In the browser: presses on the cards' buttons open their menus, and each button says whether
   * its menu is open (`aria-expanded`). Returns how to stop.
   */
  function start(root: Document = document): () => void {
    const onClick = (event: Event) => {
      const button = event.target instanceof Element ? event.target.closest<HTMLElement>(`[${CARD_SAVE_ATTRIBUTE}]`) : null;
      const projectId = button?.getAttribute(CARD_SAVE_ATTRIBUTE);
      if (!button || !projectId) return;
      event.preventDefault();
      open(projectId);
    };
    root.addEventListener('click', onClick);
    // A press made before this code arrived (`client:interaction` held it): performed now or when announced.
    const performHeld = () => {
      const projectId = takeHeldPress(root, `[${CARD_SAVE_ATTRIBUTE}]`)?.getAttribute(CARD_SAVE_ATTRIBUTE);
      if (projectId) open(projectId);
    };
    root.addEventListener(HELD_PRESS_EVENT, performHeld);
    let stopMenu: (() => void) | null = null;
    const stopActive = $active.subscribe((active) => {
      stopMenu?.();
      stopMenu = active
        ? active.menu.$menu.subscribe((state) => {
            for (const button of root.querySelectorAll(`[${CARD_SAVE_ATTRIBUTE}="${CSS.escape(active.projectId)}"]`)) button.setAttribute('aria-expanded', String(state.open));
          })
        : null;
    });
    performHeld();
    return () => {
      root.removeEventListener('click', onClick);
      root.removeEventListener(HELD_PRESS_EVENT, performHeld);
      stopActive();
      stopMenu?.();
    };
  }

  return { $active, open, start, menuFor };
}
