import { useEffect, useId, type KeyboardEvent, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { countCharacters } from '../../lib/text.ts';
import { useEarlyInput } from '../shared/use-early-input.ts';

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

/**
 * A comment or reply box: counter, error, hint, Cancel (replies) and the submit button, which
 * sends guests to sign in. Ctrl+Enter (⌘+Enter) posts; the hint names it only where a hardware
 * keyboard is likely (`.composer-shortcut` is hidden on touch screens).
 */
export function Composer({ label, placeholder, value, onChange, onSubmit, onCancel, busy, error, submitLabel, guest, guestLabel, max, autoFocus, notice }: ComposerProps) {
  const { t } = useTranslation();
  const id = useId();
  // The comments island hydrates when the visitor reaches for it (`client:interaction`), so the
  // box may hold text typed before its code arrived: that text is the draft.
  const ref = useEarlyInput<HTMLTextAreaElement>(value, onChange);
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
          {guest ? (
            t('comments.composer.guestHint')
          ) : (
            <>
              {t('comments.composer.hint')}
              <span className="composer-shortcut"> {t('comments.composer.shortcut')}</span>
            </>
          )}
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
