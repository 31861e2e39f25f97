import { useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { noticeText, type Notice } from '../../lib/notice.ts';
import { TAGS_MAX, type FormTag } from '../../stores/project-form.ts';

interface TagPickerProps {
  id: string;
  tree: FormTag[];
  value: string[];
  onChange: (value: string[]) => void;
  error?: Notice;
}

/** Tags: an autocompleting combobox over the two-level tag tree, chosen tags as removable chips. */
export function TagPicker({ id, tree, value, onChange, error }: TagPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const options = useMemo(
    () => tree.flatMap((root) => [{ slug: root.slug, name: root.name, parent: null as string | null }, ...root.children.map((child) => ({ slug: child.slug, name: child.name, parent: root.name }))]),
    [tree],
  );
  const names = useMemo(() => new Map(options.map((option) => [option.slug, option.name])), [options]);
  const needle = query.trim().toLowerCase();
  const matches = options
    .filter((option) => !value.includes(option.slug))
    .filter((option) => !needle || option.name.toLowerCase().includes(needle) || option.slug.includes(needle) || option.parent?.toLowerCase().includes(needle))
    .slice(0, 8);
  const full = value.length >= TAGS_MAX;
  const listId = `${id}-list`;

  function choose(slug: string) {
    if (full || value.includes(slug)) return;
    onChange([...value, slug]);
    setQuery('');
    setActive(0);
    setOpen(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((index) => Math.min(index + 1, Math.max(0, matches.length - 1)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter') {
      if (open && matches[active]) {
        event.preventDefault();
        choose(matches[active]!.slug);
      } else if (query) event.preventDefault();
    } else if (event.key === 'Escape') {
      setOpen(false);
    } else if (event.key === 'Backspace' && !query && value.length) {
      onChange(value.slice(0, -1));
    }
  }

  return (
    <div className="field tag-picker">
      <label htmlFor={id}>{t('form.tags')}</label>
      {value.length > 0 && (
        <ul className="chips" aria-label={t('form.chosenTags')}>
          {value.map((slug) => (
            <li key={slug}>
              <span className="chip chip-removable">
                {names.get(slug) ?? slug}
                <button type="button" onClick={() => onChange(value.filter((entry) => entry !== slug))} aria-label={t('form.removeTag', { name: names.get(slug) ?? slug })}>
                  ×
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="combobox">
        <input
          id={id}
          role="combobox"
          aria-expanded={open && matches.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && matches[active] ? `${listId}-${matches[active]!.slug}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          value={query}
          disabled={full}
          placeholder={full ? t('form.tagsFull') : t('form.tagsPlaceholder')}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => window.setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
          autoComplete="off"
        />
        {open && matches.length > 0 && (
          <ul className="combobox-list" role="listbox" id={listId} aria-label={t('form.tagSuggestions')}>
            {matches.map((option, index) => (
              <li
                key={option.slug}
                id={`${listId}-${option.slug}`}
                role="option"
                aria-selected={index === active}
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(option.slug);
                }}
                onMouseEnter={() => setActive(index)}
              >
                {option.name}
                {option.parent && <span className="muted"> · {option.parent}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="hint" id={`${id}-hint`}>
        {t('form.tagsHint', { used: value.length, max: TAGS_MAX })}
      </p>
      {error && (
        <p className="error" id={`${id}-error`}>
          {noticeText(error, t)}
        </p>
      )}
    </div>
  );
}
