import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { TagSuggestion } from '../lib/contract/schemas/projects.ts';
import { fail, say, warn, type Notice } from '../lib/notice.ts';
import { cleanTagName, isChineseName, tagNameProblem, tagSlugOf } from '../lib/tag-names.ts';
import { TAGS_MAX } from '../lib/contract/project-limits.ts';

export type { TagSuggestion } from '../lib/contract/schemas/projects.ts';

/** A chosen tag as the form keeps it: an existing tag's slug, or the name of a tag publishing creates. */
export type TagEntry = string | { name: string };


/** How long typing pauses before suggestions are asked for. */
export const SUGGEST_DELAY_MS = 150;

/** A suggestion as the list shows it: the name in the language typed, the other beside it when it differs. */
export interface SuggestionView extends TagSuggestion {
  primary: string;
  secondary: string | null;
}

/** Names in the language of `query`: a Chinese query shows the Chinese name first, else the English one. */
export function viewOf(suggestion: TagSuggestion, query: string): SuggestionView {
  const [primary, other] = isChineseName(query) ? [suggestion.nameZh, suggestion.nameEn] : [suggestion.nameEn, suggestion.nameZh];
  return { ...suggestion, primary, secondary: other !== primary ? other : null };
}

/** The suggestion a typed name is (its slug, or either name, case aside), or null when it names a new tag. */
export function existingFor(name: string, suggestions: readonly TagSuggestion[]): TagSuggestion | null {
  const clean = cleanTagName(name).toLowerCase();
  const slug = tagSlugOf(name);
  return suggestions.find((tag) => tag.slug === slug || tag.nameEn.toLowerCase() === clean || tag.nameZh.toLowerCase() === clean) ?? null;
}

/** The key a chosen tag is compared by: an existing tag's slug, a new one's future slug. */
export const entryKey = (entry: TagEntry) => (typeof entry === 'string' ? entry : tagSlugOf(entry.name));

export interface TagPickerState {
  query: string;
  suggestions: SuggestionView[];
  open: boolean;
  /** The highlighted suggestion; -1 for none, so Enter adds what was typed. */
  active: number;
  /** The query `suggestions` answer ('' for none). */
  answered: string;
  /** What happened to the last tag added (new, existing) or why it was refused. */
  notice: Notice | null;
}

export interface TagPickerInit {
  /** The chosen tags now (the form's field). */
  value: () => TagEntry[];
  onChange: (value: TagEntry[]) => void;
  /** Names of tags the page knows already (the tree, the content's tags), by slug. */
  names: Record<string, string>;
  /** Asks the server; `tag/suggest` unless given. */
  suggest?: (q: string) => Promise<TagSuggestion[]>;
}

/**
 * The tag field of the creation form: suggestions from the server as the author types (in the
 * language typed), arrow keys and Enter to choose one, Enter on a name that is no tag to add it
 * as a new tag (created when the project is published), and a notice saying which happened.
 */
export function createTagPicker({ value, onChange, names: known, suggest = (q) => apiCall<TagSuggestion[]>('tag/suggest', { q, limit: 8 }) }: TagPickerInit) {
  const $picker = map<TagPickerState>({ query: '', suggestions: [], open: false, active: -1, answered: '', notice: null });
  const names = new Map(Object.entries(known));
  const get = () => $picker.get();
  const update = (patch: Partial<TagPickerState>) => $picker.set({ ...get(), ...patch });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  /** The chip text of a chosen tag. */
  const labelOf = (entry: TagEntry) => (typeof entry === 'string' ? (names.get(entry) ?? entry) : entry.name);
  const isFull = () => value().length >= TAGS_MAX;

  /** The answer for `query`: shown unless the author has typed on since; chosen tags left out. */
  function showSuggestions(query: string, list: TagSuggestion[]): void {
    if (query !== get().query.trim()) return;
    const chosen = new Set(value().map(entryKey));
    const suggestions = list.filter((tag) => !chosen.has(tag.slug)).map((tag) => viewOf(tag, query));
    update({ suggestions, open: true, active: -1, answered: query });
  }

  function type(query: string): void {
    update({ query, active: -1, notice: null });
    clearTimeout(timer);
    const q = query.trim();
    if (!q) {
      update({ suggestions: [], open: false });
      return;
    }
    const ask = (asked += 1);
    timer = setTimeout(() => {
      suggest(q)
        .then((list) => {
          if (ask === asked) showSuggestions(q, list);
        })
        .catch((error: unknown) => {
          if (ask === asked) update({ suggestions: [], open: false, notice: fail(error, 'form.tagSuggestFailed') });
        });
    }, SUGGEST_DELAY_MS);
  }

  function add(entry: TagEntry, label: string, notice: Notice | null): void {
    if (!value().some((chosen) => entryKey(chosen) === entryKey(entry))) onChange([...value(), entry]);
    if (typeof entry === 'string') names.set(entry, label);
    clearTimeout(timer);
    asked += 1;
    update({ query: '', suggestions: [], open: false, active: -1, answered: '', notice });
  }

  /** Adds an existing tag from the list. */
  function choose(suggestion: SuggestionView): void {
    if (isFull()) return;
    add(suggestion.slug, suggestion.primary, null);
  }

  /**
   * Adds what was typed: the existing tag it names when it is one (saying so), else a new tag
   * (saying it is created when the project is published), or says why the name cannot be a tag.
   * Enter pressed before the suggestions for the text arrived asks for them first, so a name
   * that is a tag is never announced as new.
   */
  async function addTyped(): Promise<void> {
    const name = cleanTagName(get().query);
    if (!name || isFull()) return;
    const problem = tagNameProblem(name);
    if (problem) {
      update({ notice: warn(`form.errors.tags.${problem}`) });
      return;
    }
    let known: TagSuggestion[] = get().suggestions;
    if (get().answered !== get().query.trim()) {
      clearTimeout(timer);
      asked += 1;
      known = await suggest(get().query.trim()).catch(() => []);
      if (cleanTagName(get().query) !== name) return;
    }
    const existing = existingFor(name, known);
    if (existing) {
      const view = viewOf(existing, name);
      add(existing.slug, view.primary, say('form.tagExisting', { name: view.primary }));
      return;
    }
    if (value().some((chosen) => entryKey(chosen) === tagSlugOf(name))) {
      update({ query: '', open: false, notice: say('form.tagAlreadyChosen', { name }) });
      return;
    }
    add({ name }, name, say('form.tagNew', { name }));
  }

  /** Enter: the highlighted suggestion, or what was typed. */
  async function enter(): Promise<void> {
    const { open, active, suggestions } = get();
    const chosen = open ? suggestions[active] : undefined;
    if (chosen) choose(chosen);
    else await addTyped();
  }

  /** Moves the highlight (arrow keys), opening the list. */
  function move(step: 1 | -1): void {
    const { suggestions, active } = get();
    if (suggestions.length === 0) return;
    update({ open: true, active: Math.max(-1, Math.min(active + step, suggestions.length - 1)) });
  }

  function remove(entry: TagEntry): void {
    onChange(value().filter((chosen) => entryKey(chosen) !== entryKey(entry)));
    update({ notice: null });
  }

  const close = () => update({ open: false, active: -1 });
  const reopen = () => update({ open: get().suggestions.length > 0 });

  return { $picker, labelOf, isFull, type, showSuggestions, choose, addTyped, enter, move, remove, close, reopen };
}

export type TagPicker = ReturnType<typeof createTagPicker>;
