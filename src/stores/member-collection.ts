import { map } from 'nanostores';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX } from '../lib/collection-rules.ts';
import type { CollectionChange, MemberCollection } from '../lib/contract/schemas/collections.ts';
import { apiCall } from '../lib/api-client.ts';
import { fail, invalid, type Notice } from '../lib/notice.ts';

/** A project of the collection as the organiser lists it. */
export interface CollectionEntry {
  id: string;
  title: string;
}

/** Which of the owner's tools is open. */
export type OwnerPanel = 'none' | 'details' | 'organise' | 'delete';

export interface OwnerToolsState {
  title: string;
  description: string;
  public: boolean;
  entries: CollectionEntry[];
  panel: OwnerPanel;
  draftTitle: string;
  draftDescription: string;
  busy: boolean;
  /** The order or the projects changed while organising: the page is reloaded when it closes. */
  changed: boolean;
  message: Notice | null;
}

export interface OwnerToolsInit {
  slug: string;
  title: string;
  description: string;
  public: boolean;
  entries: CollectionEntry[];
  /** Where to go once the collection is deleted (the member's collections). */
  afterDeleteHref: string;
}

/** Why the details cannot be saved, or null: the server's rules, checked before sending. */
export function detailsProblem(title: string, description: string): Notice | null {
  if (!title.trim()) return invalid('required', 'memberCollections.titleRequired');
  if (title.trim().length > COLLECTION_TITLE_MAX || description.trim().length > COLLECTION_DESCRIPTION_MAX) return invalid('too_big');
  return null;
}

/**
 * Where `id` goes when moved by `delta` places (-1 up, +1 down), or null when it cannot move
 * that way (already first or last, or not there).
 */
export function targetPosition(entries: CollectionEntry[], id: string, delta: -1 | 1): number | null {
  const index = entries.findIndex((entry) => entry.id === id);
  if (index < 0) return null;
  const target = index + delta;
  return target < 0 || target >= entries.length ? null : target;
}

/** The entries in the order the server answered (ids), keeping the titles known here. */
export function reordered(entries: CollectionEntry[], ids: string[]): CollectionEntry[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return ids.map((id) => byId.get(id) ?? { id, title: id });
}

/**
 * The owner's tools on a collection's page: edit its title and description, make it private or
 * public, organise its projects (move up or down, take out) and delete it. What changes the
 * page's own content reloads it once saved, so the page always shows what the server has.
 */
export function createOwnerTools(init: OwnerToolsInit, reload: () => void = () => window.location.reload()) {
  const { slug, afterDeleteHref } = init;
  const $tools = map<OwnerToolsState>({
    title: init.title,
    description: init.description,
    public: init.public,
    entries: init.entries,
    panel: 'none',
    draftTitle: init.title,
    draftDescription: init.description,
    busy: false,
    changed: false,
    message: null,
  });

  function open(panel: OwnerPanel): void {
    const state = $tools.get();
    $tools.set({ ...state, panel, draftTitle: state.title, draftDescription: state.description, message: null });
  }

  /** Closes the open panel; after organising with changes, the page is reloaded to show them. */
  function close(): void {
    const state = $tools.get();
    if (state.busy) return;
    $tools.set({ ...state, panel: 'none', message: null });
    if (state.panel === 'organise' && state.changed) reload();
  }

  function typeTitle(value: string): void {
    $tools.set({ ...$tools.get(), draftTitle: value, message: null });
  }

  function typeDescription(value: string): void {
    $tools.set({ ...$tools.get(), draftDescription: value, message: null });
  }

  async function save(fields: { title: string; description: string; public: boolean }): Promise<boolean> {
    $tools.set({ ...$tools.get(), busy: true, message: null });
    try {
      const saved = await apiCall<MemberCollection>('collection/save', { slug, ...fields });
      $tools.set({ ...$tools.get(), busy: false, title: saved.title, description: saved.description, public: saved.public });
      return true;
    } catch (error) {
      $tools.set({ ...$tools.get(), busy: false, message: fail(error, 'memberCollections.saveFailed') });
      return false;
    }
  }

  /** Saves the title and description from the details panel. */
  async function saveDetails(): Promise<void> {
    const state = $tools.get();
    const problem = detailsProblem(state.draftTitle, state.draftDescription);
    if (problem) {
      $tools.setKey('message', problem);
      return;
    }
    if (await save({ title: state.draftTitle.trim(), description: state.draftDescription.trim(), public: state.public })) reload();
  }

  /** Makes the collection private, or public again. */
  async function togglePublic(): Promise<void> {
    const state = $tools.get();
    if (state.busy) return;
    if (await save({ title: state.title, description: state.description, public: !state.public })) reload();
  }

  async function change(path: 'collection/move' | 'collection/remove', body: Record<string, unknown>): Promise<void> {
    $tools.set({ ...$tools.get(), busy: true, message: null });
    try {
      const answer = await apiCall<CollectionChange>(path, { slug, ...body });
      $tools.set({ ...$tools.get(), busy: false, changed: true, entries: reordered($tools.get().entries, answer.projects) });
    } catch (error) {
      $tools.set({ ...$tools.get(), busy: false, message: fail(error, 'memberCollections.changeFailed') });
    }
  }

  /** Moves a project one place up (-1) or down (+1). */
  async function move(id: string, delta: -1 | 1): Promise<void> {
    const position = targetPosition($tools.get().entries, id, delta);
    if (position === null || $tools.get().busy) return;
    await change('collection/move', { id, position });
  }

  /** Takes a project out of the collection. */
  async function remove(id: string): Promise<void> {
    if ($tools.get().busy) return;
    await change('collection/remove', { id });
  }

  /** Deletes the collection (after the confirmation panel) and goes to the member's collections. */
  async function confirmDelete(): Promise<void> {
    $tools.set({ ...$tools.get(), busy: true, message: null });
    try {
      await apiCall<{ slug: string }>('collection/del', { slug });
      window.location.assign(afterDeleteHref);
    } catch (error) {
      $tools.set({ ...$tools.get(), busy: false, message: fail(error, 'memberCollections.deleteFailed') });
    }
  }

  return { $tools, open, close, typeTitle, typeDescription, saveDetails, togglePublic, move, remove, confirmDelete };
}
