/**
 * Progressive enhancement of the SSO forms (they also work without JavaScript: the page itself
 * handles the POST). With JavaScript: inline checks before sending, the JSON endpoint, field
 * errors shown next to their fields, and the browser sent on to the answered `location`.
 */

import type { TFunction } from 'i18next';
import { errorMessage, fieldMessage } from '../lib/contract/errors.ts';

/** The page's messages (`#sso-messages`), flat: `validation.required` → words. */
type Messages = Record<string, string>;

interface Envelope {
  retCode: number;
  result?: { location?: string };
  message?: string;
  errorKey?: string;
  fields?: Record<string, string>;
}

/**
 * A translate function over the page's few messages, for the islands' error helpers
 * (`errorMessage`, `fieldMessage`): a lookup that honours `defaultValue`, as i18next's `t` does,
 * without shipping i18next to the sign-in pages.
 */
function translatorOf(messages: Messages): TFunction {
  const lookup = (key: string, options?: { defaultValue?: string }) => messages[key] ?? options?.defaultValue ?? key;
  return lookup as unknown as TFunction;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function readMessages(doc: Document): Messages {
  try {
    return JSON.parse(doc.getElementById('sso-messages')?.textContent ?? '{}') as Messages;
  } catch {
    return {};
  }
}

/** The `validation.` key for a field's current value, or null when it is acceptable. */
function checkField(input: HTMLInputElement): string | null {
  const value = input.type === 'password' ? input.value : input.value.trim();
  if (input.required && !value) return 'required';
  if (input.type === 'email' && value && !EMAIL.test(value)) return 'email';
  if (input.minLength > 0 && value && value.length < input.minLength) return input.dataset.tooShort ?? 'too_small';
  if (input.maxLength > 0 && value.length > input.maxLength) return 'too_big';
  return null;
}

function setFieldError(form: HTMLFormElement, name: string, message: string | null): void {
  const input = form.elements.namedItem(name);
  const error = form.querySelector<HTMLElement>(`[data-error-for="${name}"]`);
  if (input instanceof HTMLInputElement) {
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  if (error) {
    error.textContent = message ?? '';
    error.hidden = !message;
  }
}

function setFormError(form: HTMLFormElement, message: string | null): void {
  const box = form.querySelector<HTMLElement>('[data-form-error]');
  if (!box) return;
  box.textContent = message ?? '';
  box.hidden = !message;
}

function enhanceForm(form: HTMLFormElement, messages: Messages): void {
  const t = translatorOf(messages);
  const endpoint = form.dataset.endpoint;
  if (!endpoint) return;
  form.noValidate = true; // our own messages, in the page's language
  const inputs = () => [...form.querySelectorAll<HTMLInputElement>('input[name]:not([type="hidden"])')];

  // A shown error goes away as soon as the value is fixed. Errors appear only on submit: showing
  // them on blur would move the submit button under the pointer between press and release.
  for (const input of inputs()) {
    input.addEventListener('input', () => {
      if (input.getAttribute('aria-invalid') === 'true' && !checkField(input)) setFieldError(form, input.name, null);
    });
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit?.disabled) return;
    setFormError(form, null);
    let firstInvalid: HTMLInputElement | null = null;
    for (const input of inputs()) {
      const key = checkField(input);
      setFieldError(form, input.name, key ? fieldMessage(key, t) : null);
      if (key && !firstInvalid) firstInvalid = input;
    }
    if (firstInvalid) {
      setFormError(form, t('sso.fixErrors'));
      firstInvalid.focus();
      return;
    }
    const body = Object.fromEntries([...new FormData(form).entries()].filter(([, value]) => typeof value === 'string'));
    const label = submit?.textContent ?? '';
    if (submit) {
      submit.disabled = true;
      submit.classList.add('is-busy');
      submit.textContent = t('sso.submitting');
    }
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify(body),
      });
      const envelope = (await response.json()) as Envelope;
      if (envelope.retCode === 0 && envelope.result?.location) {
        window.location.assign(envelope.result.location);
        return; // keep the button busy while the browser leaves
      }
      const fields = envelope.fields ?? {};
      let focus: HTMLInputElement | null = null;
      for (const [name, key] of Object.entries(fields)) {
        setFieldError(form, name, fieldMessage(key, t));
        const input = form.elements.namedItem(name);
        if (!focus && input instanceof HTMLInputElement) focus = input;
      }
      setFormError(form, errorMessage(envelope, t));
      focus?.focus();
    } catch {
      setFormError(form, errorMessage({ errorKey: 'network' }, t));
    }
    if (submit) {
      submit.disabled = false;
      submit.classList.remove('is-busy');
      submit.textContent = label;
    }
  });
}

function enhancePasswordToggles(doc: Document, messages: Messages): void {
  for (const button of doc.querySelectorAll<HTMLButtonElement>('[data-toggle-password]')) {
    button.addEventListener('click', () => {
      const input = doc.getElementById(button.dataset.togglePassword ?? '');
      if (!(input instanceof HTMLInputElement)) return;
      const show = input.type === 'password';
      input.type = show ? 'text' : 'password';
      button.setAttribute('aria-pressed', String(show));
      button.textContent = messages[show ? 'sso.hidePassword' : 'sso.showPassword'] ?? button.textContent;
    });
  }
}

/** Enhances every `form[data-sso-form]` of the page and its password toggles. */
export function enhanceSsoForms(doc: Document): void {
  const messages = readMessages(doc);
  for (const form of doc.querySelectorAll<HTMLFormElement>('form[data-sso-form]')) enhanceForm(form, messages);
  enhancePasswordToggles(doc, messages);
}
