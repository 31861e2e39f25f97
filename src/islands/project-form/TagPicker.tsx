import { useStore } from '@nanostores/react';
import { useMemo, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TAGS_MAX } from '../../lib/contract/project-limits.ts';
import { noticeText, type Notice } from '../../lib/notice.ts';
import type { FormTag } from '../../stores/project-form.ts';
import { createTagPicker, entryKey, type TagEntry } from '../../stores/tag-picker.ts';
import { FieldError } from '../shared/FieldError.tsx';
import { useHydrated } from '../use-hydrated.ts';

interface TagPickerProps {
  id: string;
  tree: FormTag[];
  /** Names of the content's tags outside the tree (members' tags), by slug. */
  names: Record<string, string>;
  value: TagEntry[];
  onChange: (value: TagEntry[]) => void;
  error?: Notice;
}

/**
 * Tags: a type-ahead combobox over every tag (suggested by the server in the language typed),
 * where Enter on a name that is no tag adds it as a new one; chosen tags as removable chips.
 */
export function TagPicker({ id, tree, names, value, onChange, error }: TagPickerProps) {
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const current = useRef({ value, onChange });
  current.current = { value, onChange };
  const picker = useMemo(() => {
    const known: Record<string, string> = { ...names };
    for (const root of tree) {
      known[root.slug] = root.name;
      for (const child of root.children) known[child.slug] = child.name;
    }
    return createTagPicker({ names: known, value: () => current.current.value, onChange: (next) => current.current.onChange(next) });
    // The picker is made once per form; later props reach it through `current`.
  }, []);
  const { query, suggestions, open, active, notice } = useStore(picker.$picker);
  const full = value.length >= TAGS_MAX;
  const listId = `${id}-list`;
  const expanded = open && suggestions.length > 0;

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      picker.move(1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      picker.move(-1);
    } else if (event.key === 'Enter') {
      // Enter never submits the form from here: it adds a tag.
      event.preventDefault();
      void picker.enter();
    } else if (event.key === 'Escape') {
      picker.close();
    } else if (event.key === 'Backspace' && !query && value.length) {
      picker.remove(value[value.length - 1]!);
    }
  }

  return (
    <div className="field tag-picker">
      <label htmlFor={id}>{t('form.tags')}</label>
      {value.length > 0 && (
        <ul className="chips" aria-label={t('form.chosenTags')}>
          {value.map((entry) => {
            const label = picker.labelOf(entry);
            return (
              <li key={entryKey(entry)}>
                <span className="chip chip-removable">
                  {label}
                  {typeof entry !== 'string' && <span className="chip-note"> · {t('form.tagNewBadge')}</span>}
                  <button type="button" onClick={() => picker.remove(entry)} aria-label={t('form.removeTag', { name: label })}>
                    ×
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <div className="combobox">
        <input
          id={id}
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && suggestions[active] ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint ${id}-notice${error ? ` ${id}-error` : ''}`}
          value={query}
          disabled={full || !hydrated}
          placeholder={full ? t('form.tagsFull') : t('form.tagsPlaceholder')}
          onChange={(event) => picker.type(event.target.value)}
          onFocus={() => picker.reopen()}
          onBlur={() => window.setTimeout(() => picker.close(), 150)}
          onKeyDown={onKeyDown}
          autoComplete="off"
          maxLength={80}
        />
        {expanded && (
          <ul
            className="combobox-list"
            role="listbox"
            id={listId}
            aria-label={t('form.tagSuggestions')}
            // Low on a phone's screen the list would open under the form's sticky action bar.
            ref={(list) => list?.scrollIntoView({ block: 'nearest' })}
          >
            {suggestions.map((suggestion, index) => (
              <li
                key={suggestion.slug}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                onMouseDown={(event) => {
                  event.preventDefault();
                  picker.choose(suggestion);
                }}
              >
                {suggestion.primary}
                {suggestion.secondary && <span className="muted"> · {suggestion.secondary}</span>}
                <span className="muted combobox-count"> {t('form.tagProjects', { count: suggestion.projectCount })}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="hint" id={`${id}-notice`} role="status">
        {notice ? noticeText(notice, t) : ''}
      </p>
      <p className="hint" id={`${id}-hint`}>
        {t('form.tagsHint', { used: value.length, max: TAGS_MAX })}
      </p>
      <FieldError id={id} notice={error} />
    </div>
  );
}
